import { describe, expect, it } from 'vitest'
import { schemaTypes } from '@/schemas'
import { LocaleInput } from '@/studio/translation/locale-input'

/*
 * The bilingual input (« Anglais à revoir », studio/translation/locale-input.tsx) belongs on exactly the
 * objects that keep the French their English was written from (`enSource`). Put on another object it
 * draws only `fr` and `en` and hides the rest: on the rich text's link it hid the URL, and no link could
 * be given one.
 */
type SchemaNode = {
  name?: string
  fields?: SchemaNode[]
  of?: SchemaNode[]
  marks?: { annotations?: SchemaNode[] }
  components?: { input?: unknown }
}

/** Every object of the schema with its path: types, their fields, array members, rich text's annotations. */
function* objects(node: SchemaNode, path: string): Generator<[string, SchemaNode]> {
  yield [path, node]
  for (const child of [...(node.fields ?? []), ...(node.of ?? []), ...(node.marks?.annotations ?? [])])
    yield* objects(child, `${path}/${child.name ?? '(member)'}`)
}

describe('the bilingual input', () => {
  it('is on every object that keeps its English’s French source, and on no other', () => {
    const all = (schemaTypes as unknown as SchemaNode[]).flatMap((type) => [...objects(type, type.name ?? '')])
    const withInput = all.filter(([, node]) => node.components?.input === LocaleInput).map(([path]) => path)
    const bilingual = all
      .filter(([, node]) => node.fields?.some((field) => field.name === 'enSource'))
      .map(([path]) => path)
    expect(bilingual).toEqual(expect.arrayContaining(['localeString', 'localeText', 'localeBlockContent']))
    expect(withInput).toEqual(bilingual)
  })
})
