import { describe, expect, it } from 'vitest'
import { jsonTextDepth, jsonValueDepth, MAX_JSON_DEPTH, parseJson } from './http-kit.ts'

/*
 * The one JSON depth limit both twins apply (the Content Lake's bodies and parameters, the Supabase
 * twin's REST and auth bodies): where it falls, and that its two counts, on text and on values, agree.
 */

/** JSON `depth` levels deep, arrays and objects in turn. */
function nested(depth: number): string {
  let text = '1'
  for (let level = 0; level < depth; level++) text = level % 2 ? `{"a":${text}}` : `[${text}]`
  return text
}

describe('the shared JSON depth limit', () => {
  it('parses JSON nested exactly to the limit, and refuses one level more before parsing it', () => {
    expect(parseJson(nested(MAX_JSON_DEPTH))).toMatchObject({ ok: true })
    expect(parseJson(`[${nested(MAX_JSON_DEPTH)}]`)).toEqual({
      ok: false,
      tooDeep: true,
      message: `The JSON is nested deeper than ${MAX_JSON_DEPTH} levels`,
    })
    expect(parseJson('[1,')).toMatchObject({ ok: false, tooDeep: false })
  })

  it('counts the same depth in a text and in the value it parses to, brackets inside strings aside', () => {
    for (const text of [
      '1',
      '"[{"',
      '[]',
      '{"a":{"b":[1,{"c":"]}\\"["}]}}',
      nested(40),
      `[${nested(MAX_JSON_DEPTH)}]`,
    ]) {
      expect(jsonTextDepth(text), text).toBe(jsonValueDepth(JSON.parse(text)))
    }
  })

  it('walks a value 20,000 levels deep without recursion, giving up past the limit', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)
    expect(jsonValueDepth(deep)).toBe(MAX_JSON_DEPTH + 1)
    expect(jsonTextDepth(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)).toBe(20_000)
  })
})
