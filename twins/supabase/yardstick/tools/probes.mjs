// Beyond the suite: a few writes whose PostgREST 12 behaviour bounds what they touch, sent after the
// audit, each under `Prefer: tx=rollback` (honoured by the twin, so the database is left as it was).
// Prints a markdown list: request, the twin's answer, and what PostgREST does.
const [base] = process.argv.slice(2)
const probes = [
  {
    what: 'limited update: PATCH with order + limit=1 (postgrest-js `.update().eq().order().limit(1)`)',
    postgrest:
      'PostgREST 12 updates at most 1 row (limited update, ordered on a unique column) or refuses; never all matches',
    method: 'PATCH',
    path: '/messages?channel_id=gte.1&order=id.asc&limit=1&select=id',
    body: { data: { probe: true } },
  },
  {
    what: 'limited delete: DELETE with order + limit=1',
    postgrest: 'PostgREST 12 deletes at most 1 row or refuses; never all matches',
    method: 'DELETE',
    path: '/messages?channel_id=gte.1&order=id.asc&limit=1&select=id',
  },
  {
    what: 'PATCH with ?columns=status and a body that also sets data',
    postgrest: 'PostgREST writes only the columns listed in ?columns= (the other keys are ignored)',
    method: 'PATCH',
    path: '/users?username=eq.supabot&columns=status&select=username,status,data',
    body: { status: 'OFFLINE', data: { probe: true } },
  },
  {
    what: 'PATCH of 2+ rows with Accept: application/vnd.pgrst.object+json, return=minimal',
    postgrest: 'PostgREST answers 406 PGRST116 and rolls back',
    method: 'PATCH',
    path: '/users?status=eq.ONLINE',
    accept: 'application/vnd.pgrst.object+json',
    prefer: 'return=minimal',
    body: { data: { probe: true } },
  },
  {
    what: 'RPC that writes rows, Prefer: count=exact',
    postgrest: 'PostgREST answers Content-Range with the total',
    method: 'POST',
    path: '/rpc/set_users_offline?select=username',
    prefer: 'count=exact',
    body: { name_param: 'nobody%' },
  },
]
for (const p of probes) {
  const prefer = [p.prefer ?? 'return=representation', 'tx=rollback'].join(', ')
  const response = await fetch(base + p.path, {
    method: p.method,
    headers: { Prefer: prefer, Accept: p.accept ?? 'application/json', 'Content-Type': 'application/json' },
    body: p.body ? JSON.stringify(p.body) : undefined,
  })
  const text = await response.text()
  console.log(
    `- **${p.what}**: \`${p.method} ${p.path}\` Prefer: \`${prefer}\`${p.accept ? ` Accept: \`${p.accept}\`` : ''}${p.body ? ` body \`${JSON.stringify(p.body)}\`` : ''}`,
  )
  console.log(
    `  - twin: **${response.status}** Content-Range \`${response.headers.get('content-range')}\` Preference-Applied \`${response.headers.get('preference-applied')}\` \`${text.replace(/\s*\n\s*/g, ' ').slice(0, 300)}\``,
  )
  console.log(`  - PostgREST: ${p.postgrest}`)
}
