// `npm run bench:translations`: the « Traductions à revoir » overview over a dataset of 1,000 documents
// on the local Content Lake, as the Studio makes it: one query for every document (drafts as editors see
// them), then the status of every bilingual field, computed in the page (lib/i18n/translation-status.ts).
// Prints p50 / p95 of the whole (query + statuses) and of the computation alone, and how many fields and
// documents it found to review. Issue 45's target: within 1 s.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startContentLake } from '@plume/twins/content-lake'
import { fieldsToReview, localeFields } from '../../lib/i18n/translation-status.ts'
import { percentile } from './bench-kit.ts'

const DOCUMENTS = 1_000
const RUNS = 20

const lake = await startContentLake({
  port: 0,
  seedDir: join(process.cwd(), 'studio', 'seed'),
  webhookUrl: null,
  log: () => {},
})
// The seed's richest document (a service: title, texts, rich text, packages and their lists) copied
// until the dataset holds DOCUMENTS documents; one in five has its French price changed since.
const seed = readFileSync(join(process.cwd(), 'studio', 'seed', 'production.ndjson'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, unknown>)
const service = seed
  .filter((document) => document._type === 'service')
  .sort((a, b) => localeFields(b).length - localeFields(a).length)[0]
const copies = Array.from({ length: DOCUMENTS - seed.length }, (_, index) => {
  const copy = structuredClone(service)
  copy._id = `bench-service-${index}`
  if (index % 5 === 0) (copy.title as { fr: string }).fr += ` (révisé ${index})`
  return { createOrReplace: copy }
})
for (let index = 0; index < copies.length; index += 200) {
  const response = await fetch(`${lake.url}/v2025-02-19/data/mutate/production`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${lake.token}` },
    body: JSON.stringify({ mutations: copies.slice(index, index + 200) }),
  })
  if (!response.ok) throw new Error(`filling the dataset: ${response.status} ${await response.text()}`)
}
const types = [...new Set(seed.map((document) => String(document._type)))]

async function overview(): Promise<{ total: number; compute: number; fields: number; documents: number; all: number }> {
  const started = performance.now()
  const url = new URL(`${lake.url}/v2025-02-19/data/query/production`)
  url.searchParams.set('query', '*[_type in $types]')
  url.searchParams.set('$types', JSON.stringify(types))
  url.searchParams.set('perspective', 'drafts')
  const response = await fetch(url, { headers: { Authorization: `Bearer ${lake.token}` } })
  if (!response.ok) throw new Error(`the overview's query answered ${response.status}`)
  const { result } = (await response.json()) as { result: Record<string, unknown>[] }
  const computing = performance.now()
  const pending = result.map((document) => fieldsToReview(document)).filter((fields) => fields.length > 0)
  const done = performance.now()
  return {
    total: done - started,
    compute: done - computing,
    fields: pending.reduce((sum, fields) => sum + fields.length, 0),
    documents: pending.length,
    all: result.length,
  }
}

await overview() // warm-up
const runs = []
for (let run = 0; run < RUNS; run++) runs.push(await overview())
const last = runs.at(-1)!
console.log(
  `[bench] overview of ${last.all} documents (${localeFields(service).length} bilingual fields in each copy): ` +
    `${last.fields} fields of ${last.documents} documents to review`,
)
console.log(
  `  query + statuses  p50 ${percentile(
    runs.map((r) => r.total),
    50,
  ).toFixed(0)} ms  p95 ${percentile(
    runs.map((r) => r.total),
    95,
  ).toFixed(0)} ms`,
)
console.log(
  `  statuses alone    p50 ${percentile(
    runs.map((r) => r.compute),
    50,
  ).toFixed(1)} ms  p95 ${percentile(
    runs.map((r) => r.compute),
    95,
  ).toFixed(1)} ms`,
)
await lake.close()
