import { startLocalSupabase } from '../supabase/local/create-local-supabase.ts'
import { LOCAL_ANON_KEY } from '../supabase/local/defaults.ts'
import { mkdtempSync } from 'node:fs'
for (const dataDir of [undefined, mkdtempSync('/tmp/probe-')]) {
  const s = await startLocalSupabase({ port: 0, dataDir, log: () => {}, trustedProxyHops: 2 })
  const body = JSON.stringify({ name: 'Bench', email: 'b@x.fr', phone: null, message: 'Benchmark message xx', package: null })
  let i = 0
  const one = () => fetch(`${s.url}/rest/v1/contact_submissions`, { method: 'POST', headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${LOCAL_ANON_KEY}`, 'Content-Type': 'application/json', 'X-Forwarded-For': `10.0.${(i >> 8) & 255}.${i++ & 255}` }, body }).then((r) => r.arrayBuffer())
  for (let k = 0; k < 50; k++) await one()
  let t = performance.now()
  for (let k = 0; k < 300; k++) await one()
  const http = (performance.now() - t) / 300
  // raw DB: same statements without HTTP
  t = performance.now()
  for (let k = 0; k < 300; k++) {
    await s.database.asRequest({ role: 'anon', claims: {}, method: 'POST', path: '/x', headers: { 'x-forwarded-for': `10.9.${k >> 8}.${k & 255}, 127.0.0.1` }, readOnly: false }, async (tx) => {
      await tx.query(`insert into public.contact_submissions (name,email,phone,message,package) select name,email,phone,message,package from json_populate_recordset(null::public.contact_submissions, $1::json)`, [`[${body}]`])
    })
  }
  const db = (performance.now() - t) / 300
  t = performance.now()
  for (let k = 0; k < 300; k++) await s.database.db.query('select 1')
  const trivial = (performance.now() - t) / 300
  console.log(dataDir ? 'disk' : 'memory', { httpMs: http.toFixed(2), dbMs: db.toFixed(2), select1Ms: trivial.toFixed(3) })
  await s.close()
}
