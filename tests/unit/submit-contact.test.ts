import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ContactFormValues } from '@/lib/contact/contact-schema'

/*
 * The id a message is sent with (lib/contact/submit-contact.ts): the same when the visitor sends the
 * very same message again after an error, so that the database stores it once
 * (tests/integration/contact-insert.test.ts proves the database's part); a new one otherwise.
 */
type Answer = { error: { code: string; message: string } | null }
const sent: Array<Record<string, unknown>> = []
let answers: Answer[] = []
vi.mock('@/lib/supabase/browser-client', () => ({
  getSupabaseBrowserClient: () => ({
    from: () => ({
      insert: async (row: Record<string, unknown>) => {
        sent.push(row)
        return answers.shift() ?? { error: null }
      },
    }),
  }),
}))

const values: ContactFormValues = {
  name: 'Camille Martin',
  email: 'camille@example.fr',
  phone: '',
  message: 'Bonjour, je voudrais un devis pour des articles.',
  website: '',
  package: null,
}
const LATE = { error: { code: '', message: 'FetchError: AbortError: the deadline passed' } }
const COPY = {
  error: {
    code: '23505',
    message: 'duplicate key value violates unique constraint "contact_submissions_pkey"',
  },
}

beforeEach(() => {
  sent.length = 0
  answers = []
  vi.resetModules()
})
const submit = async (message = values.message) =>
  (await import('@/lib/contact/submit-contact')).submitContact({ ...values, message }, 'fr')

describe('submitContact', () => {
  it('sends the same message again with the same id after an error, and takes its refusal as a copy for success', async () => {
    answers = [LATE, COPY]
    expect(await submit()).toBe('error')
    expect(await submit()).toBe('success')
    expect(sent[1].id).toBe(sent[0].id)
    expect(String(sent[0].id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('draws a new id once a word changed, and after a success', async () => {
    answers = [LATE]
    await submit()
    await submit('Bonjour, je voudrais un devis pour trois articles.')
    await submit('Bonjour, je voudrais un devis pour trois articles.')
    expect(sent[1].id).not.toBe(sent[0].id)
    expect(sent[2].id).not.toBe(sent[1].id)
  })

  it('says error for any other refusal, the same id kept for the next try', async () => {
    answers = [{ error: { code: '23505', message: 'duplicate key value violates unique constraint "other"' } }]
    expect(await submit()).toBe('error')
    await submit()
    expect(sent[1].id).toBe(sent[0].id)
  })
})
