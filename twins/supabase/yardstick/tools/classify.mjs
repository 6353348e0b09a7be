// Classifies every failing test of the run by cause, from jest's results and the proxy's log of every
// exchange (tagged by test), and checks every write for a commit PostgREST would refuse or roll back.
// Usage: node classify.mjs out/results.json out/exchanges.jsonl [out/audit.json] > out/classification.md
import { readFileSync, existsSync } from 'node:fs'

const [resultsFile, exchangesFile, auditFile] = process.argv.slice(2)
const results = JSON.parse(readFileSync(resultsFile, 'utf8'))
const exchanges = readFileSync(exchangesFile, 'utf8')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l))
const audit = auditFile && existsSync(auditFile) ? JSON.parse(readFileSync(auditFile, 'utf8')) : null
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '')

const tests = []
for (const file of results.testResults) {
  const fileName = file.name.replace(/.*\/test\//, '')
  for (const t of file.assertionResults) {
    const key = `${fileName} :: ${t.fullName}`
    tests.push({
      key,
      file: fileName,
      name: t.fullName,
      line: t.location?.line,
      status: t.status,
      failure: strip(t.failureMessages.join('\n'))
        .split('\n')
        .filter((l) => !/^\s+at /.test(l))
        .join('\n'),
      exchanges: exchanges.filter((e) => e.test === key),
    })
  }
}

const parse = (body) => {
  try {
    return JSON.parse(body)
  } catch {
    return null
  }
}
const prefer = (e) =>
  Object.fromEntries(
    (e.requestHeaders.prefer ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => [p.split('=')[0], p.split('=').slice(1).join('=')]),
  )
const line = (e) =>
  `\`${e.method} ${decodeURIComponent(e.url)}\`` +
  (e.requestHeaders.prefer ? ` Prefer: \`${e.requestHeaders.prefer}\`` : '') +
  (e.requestHeaders.accept && e.requestHeaders.accept !== '*/*' ? ` Accept: \`${e.requestHeaders.accept}\`` : '') +
  (e.requestHeaders['accept-profile'] ? ` Accept-Profile: \`${e.requestHeaders['accept-profile']}\`` : '') +
  (e.requestHeaders['content-profile'] ? ` Content-Profile: \`${e.requestHeaders['content-profile']}\`` : '') +
  (e.requestBody ? ` body \`${e.requestBody.slice(0, 160)}\`` : '') +
  ` → **${e.status}**` +
  (e.responseHeaders['preference-applied']
    ? ` Preference-Applied: \`${e.responseHeaders['preference-applied']}\``
    : '') +
  (e.responseHeaders['content-range'] ? ` Content-Range: \`${e.responseHeaders['content-range']}\`` : '') +
  ` \`${e.responseBody.replace(/\s*\n\s*/g, ' ').slice(0, 220)}\``

// ---- (d) detector: every write the twin answered 2xx although PostgREST would refuse or roll it back.
const danger = []
for (const e of exchanges) {
  if (!['POST', 'PATCH', 'DELETE', 'PUT'].includes(e.method) || e.status >= 300) continue
  const p = prefer(e)
  const body = parse(e.responseBody)
  const rows = Array.isArray(body) ? body.length : null
  const applied = e.responseHeaders['preference-applied'] ?? ''
  const reasons = []
  if (p.tx === 'rollback' && !applied.includes('tx=rollback'))
    reasons.push('Prefer: tx=rollback not applied (PostgREST with db-tx-end=commit-allow-override rolls back)')
  const range = /^(\d+)-(\d+)\//.exec(e.responseHeaders['content-range'] ?? '')
  const affected = range ? Number(range[2]) - Number(range[1]) + 1 : rows
  if (
    p.handling === 'strict' &&
    p['max-affected'] !== undefined &&
    affected !== null &&
    affected > Number(p['max-affected'])
  )
    reasons.push(
      `${affected} rows affected > max-affected=${p['max-affected']} under handling=strict (PostgREST 13: 400 PGRST124, rolled back)`,
    )
  if ((e.requestHeaders.accept ?? '').includes('vnd.pgrst.object') && rows !== null)
    reasons.push(
      `Accept object+json answered with an array of ${rows} (PostgREST: 406 PGRST116 unless exactly one row, rolled back)`,
    )
  if (reasons.length) danger.push({ e, reasons })
}
const dangerTests = new Set(danger.map((d) => d.e.test))

// ---- (a) refusals, by the twin's own error.
function refusal(t) {
  for (const e of t.exchanges) {
    if (e.status < 400) continue
    const b = parse(e.responseBody) ?? {}
    const url = decodeURIComponent(e.url)
    if (b.code === 'PGRST106') return ['a', 'other schema (Accept-Profile/Content-Profile: personal) → 406 PGRST106']
    if (b.code === 'PGRST' && /geo\+json/.test(b.message)) return ['a', 'media type: GeoJSON (.geojson()) → 406']
    if (b.code === 'PGRST' && /vnd\.pgrst\.plan/.test(b.message)) return ['a', 'media type: plans (.explain()) → 406']
    if (b.code === 'PGRST' && /Accept/.test(b.message)) return ['a', `media type: ${b.message}`]
    if (b.code === 'PGRST' && /Prefer/.test(b.message)) return ['a', `preference: ${b.message}`]
    if (b.code === 'PGRST100' && /unsupported select item/.test(b.details ?? '')) {
      const sel = new URL('http://x' + e.url).searchParams.get('select') ?? ''
      if (sel.includes('...')) return ['a', 'select: spread (`...rel(…)`) → 400 PGRST100']
      if (/\b(count|sum|avg|min|max)\(\)|\((count|sum)\)|\(count\(\)/.test(sel))
        return ['a', 'select: aggregates (`count()`, `sum()`, `rel(count)`) → 400 PGRST100']
      if (sel.includes('('))
        return [
          'a',
          'select: embedded resources / joins (`rel(…)`, `!inner`, `!left`, FK and column hints, M2M, self-reference) → 400 PGRST100',
        ]
      if (sel.includes('::')) return ['a', 'select: casts (`col::type`) → 400 PGRST100']
      if (sel.includes('->')) return ['a', 'select: JSON paths (`col->a->>b`) → 400 PGRST100']
      if (sel.includes('"')) return ['a', 'select: quoted identifiers (`"column whitespace"`) → 400 PGRST100']
      return ['a', `select: ${b.details}`]
    }
    if (b.code === 'PGRST100' && /unknown operator/.test(b.details ?? '')) {
      const op = /unknown operator "([^"(]+)/.exec(b.details)[1]
      const family = /^(cs|cd|ov|sl|sr|nxl|nxr|adj)$/.test(op)
        ? 'range/array/JSON operators (cs, cd, ov, sl, sr, nxl, nxr, adj)'
        : /fts$/.test(op)
          ? 'full-text search operators (fts, plfts, phfts, wfts)'
          : /like$/.test(op)
            ? 'quantified patterns (like(all|any), ilike(all|any))'
            : op
      return ['a', `filter: ${family} → 400 PGRST100`]
    }
    if (b.code === '42703' && /->/.test(url))
      return ['a', 'order: JSON path (`order=data->x`) → 400 42703 (column … does not exist)']
  }
  return null
}

// ---- Known non-refusal failures: explanations (matched by test name; anything else stays unclassified).
const NOTES = [
  [
    /^throwOnError throws errors instead of returning them$/,
    'b',
    'message text: PostgREST 12 answers 42P01 `relation "public.missing_table" does not exist`; the twin 404 PGRST205 `Could not find the table … in the schema cache` (PostgREST 13\'s wording)',
  ],
  [
    /count:(planned|estimated)$/,
    'c',
    "status: `Prefer: count=planned|estimated` on HEAD: PostgREST answers 206 (the planner's estimate exceeds the page), the twin counts exactly and answers 200 (documented in the README)",
  ],
  [
    /^rpc with (count: 'exact'|head:true, count:exact|get:true, count:exact)$/,
    'e',
    'silently different: `Prefer: count=exact` on RPC is ignored (no Content-Range total, count null); PostgREST answers count 1',
  ],
  [
    /with column defaults$/,
    'e',
    'generated ids differ: under `missing=default` PostgREST evaluates the DEFAULT (nextval) for every row, even rows that give the column, so its sequence advances further; the twin only for rows that lack it (both rolled back, tx=rollback honoured)',
  ],
]

const failed = tests.filter((t) => t.status === 'failed')
const rows = failed.map((t) => {
  if (dangerTests.has(t.key)) return { t, cat: 'd', sub: 'write committed that PostgREST refuses or rolls back' }
  const r = refusal(t)
  if (r) return { t, cat: r[0], sub: r[1] }
  for (const [re, cat, sub] of NOTES) if (re.test(t.name)) return { t, cat, sub }
  // A read whose extra rows are leftovers of a (d) write earlier in the run.
  const leftovers = danger.flatMap(
    (d) => (parse(d.e.responseBody) ?? []).map?.((r) => r?.username).filter(Boolean) ?? [],
  )
  if (leftovers.length && leftovers.some((u) => t.failure.includes(u)))
    return {
      t,
      cat: 'e',
      sub: `cascade: rows left by a (d) write earlier in the run (${[...new Set(leftovers)].join(', ')})`,
    }
  return { t, cat: 'e', sub: 'unclassified — inspect' }
})

const by = (list, f) => list.reduce((m, x) => (m.set(f(x), [...(m.get(f(x)) ?? []), x]), m), new Map())
const passed = tests.filter((t) => t.status === 'passed').length
const out = []
out.push(`# postgrest-js suite against the twin`, '')
out.push(
  `Tests: ${tests.length}, passed ${passed}, failed ${failed.length}, other ${tests.length - passed - failed.length}.`,
)
out.push(
  `Tests that never reach the server (client-side only): ${tests.filter((t) => t.exchanges.length === 0).length} (passed ${tests.filter((t) => t.exchanges.length === 0 && t.status === 'passed').length}).`,
  '',
)
const CAT = {
  a: '(a) refused with a PostgREST-shaped 4xx (feature not served)',
  b: '(b) message or detail text only',
  c: '(c) wrong status code',
  d: '(d) DANGEROUS: write committed that PostgREST refuses or rolls back',
  e: '(e) other',
}
for (const cat of ['a', 'b', 'c', 'd', 'e']) {
  const list = rows.filter((r) => r.cat === cat)
  out.push(`## ${CAT[cat]}: ${list.length}`, '')
  for (const [sub, items] of [...by(list, (r) => r.sub)].sort((x, y) => y[1].length - x[1].length)) {
    out.push(`- **${items.length}** ${sub}`)
    for (const r of items) out.push(`  - ${r.t.key} (line ${r.t.line})`)
  }
  out.push('')
}
out.push('## (d) detector: every 2xx write PostgREST would refuse or roll back (passing tests included)', '')
if (!danger.length) out.push('None.')
for (const d of danger) {
  out.push(`- ${d.e.test}: ${d.reasons.join('; ')}`, `  - ${line(d.e)}`)
}
out.push('')
out.push('## Failing tests with their exchanges', '')
for (const r of rows) {
  out.push(`### ${r.t.key} — ${r.cat}: ${r.sub}`)
  for (const e of r.t.exchanges) out.push(`- ${line(e)}`)
  if (r.cat !== 'a') out.push('', '```', r.t.failure.split('\n').slice(0, 40).join('\n'), '```')
  out.push('')
}
if (audit) {
  out.push('## State after the suite (audit.json)', '')
  const users = audit.users.body.map((u) => `${u.username}:${u.status}`)
  out.push(`- users: ${users.join(', ')}`)
  out.push(`- channels: ${audit.channels.body.map((c) => `${c.id}:${c.slug}`).join(', ')}`)
  const checks = [
    ['no `soedirgo` (tx=rollback insert/upsert)', !users.some((u) => u.startsWith('soedirgo:'))],
    ['`dragarcia` exists and is ONLINE (tx=rollback update, rpc, delete)', users.includes('dragarcia:ONLINE')],
    ['no `a`/`b` (insert of 2 rows with Accept object+json → 406)', !users.some((u) => /^(a|b):/.test(u))],
    [
      'no channel 100 or `test-slug` (missing=default, tx=rollback)',
      !audit.channels.body.some((c) => c.id === 100 || c.slug === 'test-slug'),
    ],
    ['no `testuser*` left (their tests clean up when they pass)', !users.some((u) => u.startsWith('testuser'))],
  ]
  for (const [what, ok] of checks) out.push(`- ${ok ? 'OK  ' : 'FAIL'} ${what}`)
  out.push('')
}
console.log(out.join('\n'))
