import fc from 'fast-check'
import { applyPatch, incremental } from 'mendoza'
import { describe, expect, it } from 'vitest'
import { checkedPatch, documentEffects, withoutRev, type Json } from './mendoza-effects.ts'

/*
 * The effects encoder against Sanity's own `mendoza` package: every patch, applied by the package's
 * simple patcher (the Studio's restore and its aligner) and by its incremental one (the Studio's
 * review of changes, which replays a chain of patches and keeps who wrote each part), gives the
 * document it was made for.
 */

// Small alphabets, so that two random values share keys, elements and characters and the encoder
// edits in place rather than writing whole values.
const text = fc
  .array(fc.constantFrom('a', 'b', ' ', 'é', '😀', '\ud83d', 'z'), { maxLength: 12 })
  .map((parts) => parts.join(''))
const key = fc.constantFrom('title', 'body', 'n', '_key', '_type', 'fr', 'en', 'a b', '')
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer({ min: -3, max: 3 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.record({ _key: fc.constantFrom('k1', 'k2', 'k3'), text: text, n: fc.integer({ min: 0, max: 2 }) }), {
      maxLength: 4,
    }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value
const doc = fc.dictionary(key, json, { maxKeys: 6 }).map((fields) => ({ ...fields, _id: 'd', _type: 't' }))

const replayIncrementally = (start: Json, patches: unknown[][]) => {
  let value = incremental.wrap(start, -1)
  patches.forEach((patch, index) => {
    value = incremental.applyPatch(value, patch, index)
  })
  return incremental.unwrap(value)
}

describe('mendoza effects', () => {
  it('apply turns each revision into the next and revert turns it back, with both of mendoza’s patchers', () => {
    fc.assert(
      fc.property(fc.array(doc, { minLength: 2, maxLength: 5 }), (revisions) => {
        const effects = revisions.slice(1).map((after, index) => documentEffects(revisions[index], after))
        effects.forEach((effect, index) => {
          // Never the whole-value fallback between two documents: that would hide an encoder error.
          expect([effect.apply[0], effect.revert[0]]).not.toContain(0)
          expect(applyPatch(revisions[index], effect.apply)).toEqual(revisions[index + 1])
          expect(applyPatch(revisions[index + 1], effect.revert)).toEqual(revisions[index])
        })
        expect(
          replayIncrementally(
            revisions[0],
            effects.map((effect) => effect.apply),
          ),
        ).toEqual(revisions.at(-1))
        expect(replayIncrementally(revisions.at(-1) as Json, effects.map((effect) => effect.revert).reverse())).toEqual(
          revisions[0],
        )
      }),
      { numRuns: 400 },
    )
  })

  it('edits the parts that changed: a title typed one letter further keeps its other letters', () => {
    const before = { _id: 'p', _type: 'page', _rev: 'r1', title: { fr: 'Rédaction web et SEO', en: 'Web' } }
    const after = { ...before, _rev: 'r2', title: { fr: 'Rédaction web et SEO!', en: 'Web' } }
    const { apply, revert } = documentEffects(before, after)
    // Push title (index 2 of the sorted keys, `_rev` left out), push fr (blank), copy its 21 bytes, append "!".
    expect(apply).toEqual([10, 2, 11, 1, 23, 0, 21, 22, '!', 15, 15])
    expect(applyPatch(withoutRev(after), revert)).toEqual(withoutRev(before))
  })

  it('writes creations and deletions as whole values, the shape the Studio reads them by', () => {
    const created = { _id: 'p', _type: 'page', _rev: 'r1', title: 'x' }
    expect(documentEffects(null, created)).toEqual({
      apply: [0, { _id: 'p', _type: 'page', title: 'x' }],
      revert: [0, null],
    })
    expect(documentEffects(created, null)).toEqual({
      apply: [0, null],
      revert: [0, { _id: 'p', _type: 'page', title: 'x' }],
    })
    expect(checkedPatch('a', 'b')).toEqual([0, 'b'])
  })
})
