// `npm run bench:lake-history`: what the local Content Lake's history costs. 1,000 edits of a seed page's
// title made as the Studio makes them (one `edit` action per keystroke on the draft), then: the bytes
// they add on disk, in the transaction log while the server runs and in history.ndjson once a restart
// has compacted the log; how long the edits took; and the time of the History panel's calls after
// them (p50 / p95 over RUNS calls each). Prints numbers; asserts nothing.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startContentLake, type ContentLake } from '@plume/twins/content-lake'
import { freePort } from '@plume/twins/free-port'
import { benchOptions, percentile } from './bench-kit.ts'

const EDITS = 1_000
const RUNS = 50
const dataDir = mkdtempSync(join(tmpdir(), 'bench-history-'))
const port = await freePort() // one port: on another, a start rewrites the assets' URLs in a transaction
const { seedDir } = benchOptions()
const start = () => startContentLake({ port, dataDir, seedDir, webhookUrl: null, log: () => {} })
const bytes = (name: string) => {
  try {
    return statSync(join(dataDir, 'production', name)).size
  } catch {
    return 0
  }
}

/** One request on a connection of its own (a pooled one would outlive the server's restarts). */
function call(lake: ContentLake, method: string, path: string, body?: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/v2025-02-19${path}`,
        agent: false,
        headers: { Authorization: `Bearer ${lake.token}`, 'Content-Type': 'application/json' },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          response.statusCode === 200 ? resolve(text) : reject(new Error(`${path}: ${response.statusCode} ${text}`)),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

async function timed(label: string, lake: ContentLake, path: string) {
  for (let i = 0; i < 5; i++) await call(lake, 'GET', path) // warm-up
  const times: number[] = []
  let size = 0
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    size = (await call(lake, 'GET', path)).length
    times.push(performance.now() - started)
  }
  console.log(
    `${label.padEnd(58)} p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  (${(size / 1024).toFixed(1)} kB)`,
  )
}

let lake = await start()
await lake.close()
lake = await start() // the seed's transactions compacted into history.ndjson: the baseline
const before = { history: bytes('history.ndjson'), log: bytes('transactions.ndjson') }

// Typing into the French title: a character more per edit, back to the seed's title past 80.
const base = 'Rédaction web et SEO'
const typed = ' pour des pages qui répondent vraiment aux questions de vos clients'
let title = base
const revisions: string[] = []
const editsStarted = performance.now()
for (let i = 0; i < EDITS; i++) {
  title = title.length >= 80 ? base : title + typed[(title.length - base.length) % typed.length]
  const answer = await call(lake, 'POST', '/data/actions/production', {
    actions: [
      {
        actionType: 'sanity.action.document.edit',
        draftId: 'drafts.service-web',
        publishedId: 'service-web',
        patch: { set: { 'title.fr': title } },
      },
    ],
  })
  revisions.push((JSON.parse(answer) as { transactionId: string }).transactionId)
}
const editsMs = performance.now() - editsStarted
const log = bytes('transactions.ndjson') - before.log
await lake.close()
lake = await start() // compacts the log: the edits move to history.ndjson
const history = bytes('history.ndjson') - before.history

console.log(`[bench] ${EDITS} edits of service-web's title (a 6 kB page), one edit action each, over HTTP`)
console.log(
  `edits: ${(editsMs / EDITS).toFixed(2)} ms each on average (${((EDITS * 1000) / editsMs).toFixed(0)}/s), each fsynced`,
)
console.log(`on disk while the server runs: transactions.ndjson +${log.toLocaleString('en')} bytes`)
console.log(
  `on disk after a restart: history.ndjson +${history.toLocaleString('en')} bytes (${(history / EDITS).toFixed(0)} bytes an edit), transactions.ndjson ${bytes('transactions.ndjson')} bytes`,
)
const draft = 'drafts.service-web'
const studioQuery = 'effectFormat=mendoza&excludeContent=true&includeIdentifiedDocumentsOnly=true'
await timed(
  'events/documents/<draft>?limit=100 (History panel)',
  lake,
  `/data/history/production/events/documents/${draft}?limit=100`,
)
await timed(
  'transactions/<draft>, 50 since its creation (edit events)',
  lake,
  `/data/history/production/transactions/${draft}?${studioQuery}&limit=50&fromTransaction=${revisions[0]}`,
)
await timed(
  `transactions/<draft>, all ${EDITS} with effects`,
  lake,
  `/data/history/production/transactions/${draft}?${studioQuery}`,
)
await timed(
  `documents/<draft>?revision=<first edit> (${EDITS - 1} reverts)`,
  lake,
  `/data/history/production/documents/${draft}?revision=${revisions[0]}`,
)
await timed(
  'documents/<draft>?revision=<last edit>',
  lake,
  `/data/history/production/documents/${draft}?revision=${revisions.at(-1)}`,
)
await lake.close()
rmSync(dataDir, { recursive: true, force: true })
