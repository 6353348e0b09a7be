import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'groq-js'
import { describe, expect, it } from 'vitest'
import * as queries from '@/lib/sanity/queries'

/*
 * Pages are cached by Next and expire by tag: the revalidate route expires the tag named after the
 * published document's _type. A page whose query reads a type its sanityFetch call does not tag would
 * keep showing the old content after that type is published. Each query is parsed with groq-js and its
 * AST walked for the document types it reads (`*[_type == "x"]`, `_type in [...]`, references
 * followed); every call in the site must tag them all.
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

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The site's files that may call sanityFetch (not its definition). */
const siteFiles = ['app', 'components', 'lib']
  .flatMap(sourceFiles)
  .filter((file) => file !== join('lib', 'sanity', 'fetch.ts'))

/** Every sanityFetch / sanityFetchPublished call of the site: which query, which tags. */
const calls = siteFiles.flatMap((file) => {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/\bsanityFetch(?:Published)?\(\s*(\w+)\s*,[^[\])]*?(?:,\s*\[([^\]]*)\])?\s*\)/g)].map(
    ([call, query, tags]) => ({
      where: `${file}: ${call.replace(/\s+/g, ' ')}`,
      query,
      tags: [...(tags ?? '').matchAll(/'([^']+)'/g)].map(([, tag]) => tag),
    }),
  )
})

describe('cache tags', () => {
  it('finds the queries and their calls', () => {
    expect(queryEntries.length).toBeGreaterThanOrEqual(8)
    expect(calls.length).toBeGreaterThanOrEqual(queryEntries.length)
    const callCount = siteFiles.reduce(
      (count, file) => count + [...readFileSync(file, 'utf8').matchAll(/\bsanityFetch(?:Published)?\(/g)].length,
      0,
    )
    expect(
      calls.length,
      'a sanityFetch call this test cannot read (write it as sanityFetch(query, params, [tags]))',
    ).toBe(callCount)
  })

  it.each(queryEntries)('%s reads only document types it can name', (_name, query) => {
    expect(typesRead(query).problems).toEqual([])
  })

  it('every call tags every document type its query reads', () => {
    const byName = new Map(queryEntries)
    const missing = calls.flatMap(({ where, query, tags }) => {
      const text = byName.get(query)
      if (!text) return [`${where}: not a query of lib/sanity/queries.ts`]
      const absent = [...typesRead(text).types].filter((type) => !tags.includes(type))
      return absent.length ? [`${where}: misses ${absent.join(', ')}`] : []
    })
    expect(missing).toEqual([])
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
