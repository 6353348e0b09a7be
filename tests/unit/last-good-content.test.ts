import { describe, expect, it } from 'vitest'
import { lastGoodContent, rememberContent } from '@/lib/sanity/last-good-content'

describe('the last answers kept for draft mode', () => {
  it('keeps one answer per perspective, query and parameters, the latest', () => {
    rememberContent('published', '*[_type == $t]', { t: 'a' }, { title: 'old' })
    rememberContent('published', '*[_type == $t]', { t: 'a' }, { title: 'new' })
    rememberContent('["drafts"]', '*[_type == $t]', { t: 'a' }, { result: { title: 'draft' } })
    expect(lastGoodContent('published', '*[_type == $t]', { t: 'a' })).toEqual({ title: 'new' })
    expect(lastGoodContent('["drafts"]', '*[_type == $t]', { t: 'a' })).toEqual({ result: { title: 'draft' } })
    expect(lastGoodContent('published', '*[_type == $t]', { t: 'b' })).toBeUndefined()
  })

  it('holds 100 answers at most, dropping the least recently read', () => {
    rememberContent('published', 'kept', {}, 'read again')
    for (let index = 0; index < 99; index++) rememberContent('published', `q${index}`, {}, index)
    expect(lastGoodContent('published', 'kept', {})).toBe('read again') // read: now the most recent
    rememberContent('published', 'one more', {}, 'x')
    rememberContent('published', 'and another', {}, 'y')
    expect(lastGoodContent('published', 'kept', {})).toBe('read again')
    expect(lastGoodContent('published', 'q0', {})).toBeUndefined()
    expect(lastGoodContent('published', 'q1', {})).toBeUndefined()
    expect(lastGoodContent('published', 'q2', {})).toBe(2)
  })
})
