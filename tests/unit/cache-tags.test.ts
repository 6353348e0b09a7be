import { parse } from 'groq-js'
import { describe, expect, it } from 'vitest'
import * as queries from '@/lib/sanity/queries'
import { queryTags } from '@/lib/sanity/query-tags'

/*
 * Pages are cached by Next and turn stale by tag: the revalidate route names the tag after the
 * published document's _type. A page whose query reads a type its fetch does not tag would keep showing
 * the old content after that type is published. sanityFetch tags each query with the types its filters
 * name (lib/sanity/query-tags.ts); here each query is parsed with groq-js and its AST walked for the
 * document types it reads (`*[_type == "x"]`, `_type in [...]`, references followed): the tags must
 * hold them all.
 */

type Node = { type?: string; [key: string]: unknown }

/** Asset documents are immutable (an upload makes a new one), so following `asset->` needs no tag. */
const IMMUTABLE_REFERENCES = new Set(['asset'])

function typesRead(query: string): { types: Set<string>; problems: string[] } {
  const types = new Set<string>()
  const problems: string[] = []
  const typeConstraints = (expr: Node | undefined): string[] => {
    if (!expr) return []
    if (expr.type === 'And') return [...typeConstraints(expr.left as Node), ...typeConstraints(expr.right as Node)]
    const left = expr.left as Node | undefined
    if (expr.type !== 'OpCall' || left?.type !== 'AccessAttribute' || left.name !== '_type' || left.base) return []
    const right = expr.right as Node
    if (expr.op === '==' && right.type === 'Value') return [String(right.value)]
    if (expr.op === 'in' && right.type === 'Array')
      return (right.elements as { value: Node }[]).map((element) => String(element.value.value))
    return []
  }
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    const current = node as Node
    if (current.type === 'Filter' && (current.base as Node).type === 'Everything') {
      const found = typeConstraints(current.expr as Node)
      if (found.length === 0) problems.push('a filter over every document without a _type constraint')
      found.forEach((type) => types.add(type))
    }
    if (current.type === 'Deref') {
      const base = current.base as Node
      const name = base.type === 'AccessAttribute' ? String(base.name) : '(expression)'
      if (!IMMUTABLE_REFERENCES.has(name))
        problems.push(`a reference followed from "${name}" (add its type here and to the calls' tags)`)
    }
    Object.values(current).forEach(walk)
  }
  walk(parse(query))
  return { types, problems }
}

const queryEntries = Object.entries(queries as Record<string, unknown>).filter(
  (entry): entry is [string, string] => entry[0].endsWith('Query') && typeof entry[1] === 'string',
)

describe('cache tags', () => {
  it('finds the queries', () => {
    expect(queryEntries.length).toBeGreaterThanOrEqual(8)
  })

  it.each(queryEntries)('%s reads only document types it can name', (_name, query) => {
    expect(typesRead(query).problems).toEqual([])
  })

  it.each(queryEntries)('%s is tagged with every document type it reads', (_name, query) => {
    const tags = queryTags(query)
    expect([...typesRead(query).types].filter((type) => !tags.includes(type))).toEqual([])
    expect(tags[0]).toBe('sanity')
  })

  it('tags the forms of a type filter the queries may use', () => {
    expect(queryTags('*[_type in ["a", "b"] && defined(slug)]{ "c": *[_type == "c"][0] }')).toEqual([
      'sanity',
      'a',
      'b',
      'c',
    ])
  })

  it('reads the types of a query as written', () => {
    expect([...typesRead(queries.homePageQuery).types].sort()).toEqual([
      'benefit',
      'clientLogo',
      'homePage',
      'service',
      'testimonial',
    ])
    expect(typesRead('*[_type in ["a", "b"] && defined(slug)]{ "r": ref->title }')).toEqual({
      types: new Set(['a', 'b']),
      problems: ['a reference followed from "ref" (add its type here and to the calls\' tags)'],
    })
    expect(typesRead('*[defined(slug)]').problems).toEqual(['a filter over every document without a _type constraint'])
  })
})
