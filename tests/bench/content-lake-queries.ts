// `npm run bench:lake`: the site's own GROQ queries against the local Content Lake, over HTTP as the
// build sends them — one at a time, then eight at a time — over the seed dataset and over the seed
// plus 5,000 filler documents. Prints p50 / p95 latency and queries per second for each.
import { join } from 'node:path'
import { startContentLake } from '@plume/twins/content-lake'
import * as queries from '../../lib/sanity/queries.ts'
import { percentile } from './bench-kit.ts'

const RUNS = 400
const FILLER = 5_000

const lake = await startContentLake({
  port: 0,
  seedDir: join(process.cwd(), 'studio', 'seed'),
  webhookUrl: null,
  log: () => {},
})
const texts: string[] = Object.values(queries as Record<string, unknown>).filter(
  (value): value is string => typeof value === 'string',
)
const params = (index: number) => ({ locale: index % 2 ? 'en' : 'fr', slug: 'redaction-web' })

async function one(index: number): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${lake.url}/v2025-02-19/data/query/production`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: texts[index % texts.length], params: params(index) }),
  })
  if (!response.ok)
    throw new Error(`query ${index % texts.length} answered ${response.status}: ${await response.text()}`)
  await response.json()
  return performance.now() - started
}

async function measure(label: string, concurrency: number) {
  for (let i = 0; i < 20; i++) await one(i) // warm-up
  const times: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < RUNS) times.push(await one(next++))
    }),
  )
  const seconds = (performance.now() - started) / 1000
  console.log(
    `${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  ${(RUNS / seconds).toFixed(0)} queries/s`,
  )
}

console.log(`[bench] ${texts.length} site queries, ${RUNS} runs each measurement`)
await measure('seed, 1 at a time', 1)
await measure('seed, 8 at a time', 8)
const filler = Array.from({ length: FILLER }, (_, i) => ({
  createOrReplace: { _id: `filler-${i}`, _type: 'filler', title: { fr: `Texte ${i}`, en: `Text ${i}` }, n: i },
}))
const token = lake.token
for (let i = 0; i < filler.length; i += 500) {
  const response = await fetch(`${lake.url}/v2025-02-19/data/mutate/production`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ mutations: filler.slice(i, i + 500) }),
  })
  if (!response.ok) throw new Error(`filler answered ${response.status}`)
}
await measure(`seed + ${FILLER} documents, 1 at a time`, 1)
await measure(`seed + ${FILLER} documents, 8 at a time`, 8)
await lake.close()
