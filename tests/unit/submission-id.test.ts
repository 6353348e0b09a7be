import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { newSubmissionId } from '@/lib/contact/submission-id'

describe('newSubmissionId', () => {
  it('draws RFC 9562 version 4 UUIDs, as send-contact-email accepts them, never twice', () => {
    const ids = Array.from({ length: 2000 }, newSubmissionId)
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(z.uuid().safeParse(id).success).toBe(true)
    }
    expect(new Set(ids).size).toBe(ids.length)
  })
})
