import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * What the privacy policy promises and what the database does must agree: the retention the seed's
 * policy states (« Finalité et durée de conservation », in French and in English) is the default
 * period of the migration that purges messages (contact_retention_period in private.settings).
 */

type Block = { _type: string; children?: { text?: string }[] }
type Section = { _type: 'legalSection'; heading: { fr: string; en: string }; body: { fr: Block[]; en: Block[] } }

const root = process.cwd()
const documents = readFileSync(join(root, 'studio', 'seed', 'production.ndjson'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, unknown>)

function sections(value: unknown): Section[] {
  if (Array.isArray(value)) return value.flatMap(sections)
  if (value === null || typeof value !== 'object') return []
  const object = value as Record<string, unknown>
  return object._type === 'legalSection' ? [object as Section] : Object.values(object).flatMap(sections)
}

const policy = documents.find((document) => document._id === 'privacy-policy')
const retentionSection = sections(policy).find((section) => section.heading.fr === 'Finalité et durée de conservation')
const text = (blocks: Block[]) =>
  blocks
    .flatMap((block) => block.children ?? [])
    .map((span) => span.text)
    .join(' ')

const NUMBERS: Record<string, number> = {
  un: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  six: 6,
  dix: 10,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  ten: 10,
}
const years = (phrase: string | undefined) => (phrase === undefined ? undefined : (NUMBERS[phrase] ?? Number(phrase)))

const migration = readFileSync(join(root, 'supabase', 'migrations', '20261210100000_contact_retention.sql'), 'utf8')
const defaultPeriod = /\('contact_retention_period', '(\d+) years?'\)/.exec(migration)?.[1]

describe('the retention the privacy policy states', () => {
  it('is the database purge’s default period, in French and in English', () => {
    expect(retentionSection, 'the policy’s « Finalité et durée de conservation » section').toBeDefined()
    const french = /conservées (\S+) ans? au plus après notre dernier échange/.exec(text(retentionSection!.body.fr))
    const english = /kept for at most (\S+) years? after our last exchange/.exec(text(retentionSection!.body.en))
    expect(defaultPeriod, 'the migration’s default contact_retention_period').toBeDefined()
    expect(years(french?.[1])).toBe(Number(defaultPeriod))
    expect(years(english?.[1])).toBe(Number(defaultPeriod))
    expect(Number(defaultPeriod)).toBe(3)
  })
})
