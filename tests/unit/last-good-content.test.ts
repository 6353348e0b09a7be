import { describe, expect, it } from 'vitest'
import { LastGoodContent } from '@/lib/sanity/last-good-content'

describe('the last answers kept for draft mode', () => {
  it('keeps the latest answer under each key', () => {
    const memory = new LastGoodContent<unknown>(10)
    memory.remember('a', { title: 'old' })
    memory.remember('a', { title: 'new' })
    memory.remember('b', { title: 'other' })
    expect(memory.recall('a')).toEqual({ title: 'new' })
    expect(memory.recall('b')).toEqual({ title: 'other' })
    expect(memory.recall('c')).toBeUndefined()
  })

  it('holds `capacity` answers at most, dropping the least recently read', () => {
    const memory = new LastGoodContent<number>(100)
    memory.remember('kept', -1)
    for (let index = 0; index < 99; index++) memory.remember(`q${index}`, index)
    expect(memory.recall('kept')).toBe(-1) // read: now the most recent
    memory.remember('one more', 100)
    memory.remember('and another', 101)
    expect(memory.recall('kept')).toBe(-1)
    expect(memory.recall('q0')).toBeUndefined()
    expect(memory.recall('q1')).toBeUndefined()
    expect(memory.recall('q2')).toBe(2)
  })
})
