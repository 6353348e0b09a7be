import { openDatabase } from '../supabase/local/database.ts'
const d = await openDatabase({})
await d.db.exec(`update private.settings set value='2' where key='trusted_proxy_hops'`)
const body = JSON.stringify({ name: 'Bench', email: 'b@x.fr', phone: null, message: 'Benchmark message xx', package: null })
const ctx = (k: number) => ({ role: 'anon' as const, claims: {}, method: 'POST', path: '/x', headers: { 'x-forwarded-for': `10.9.${(k >> 8) & 255}.${k & 255}, 127.0.0.1` }, readOnly: false })
async function time(label: string, fn: (k: number) => Promise<unknown>) {
  for (let k = 0; k < 100; k++) await fn(k + 100000)
  const t = performance.now()
  for (let k = 0; k < 500; k++) await fn(k)
  console.log(label, ((performance.now() - t) / 500).toFixed(3), 'ms')
}
await time('tx+set_config only', (k) => d.asRequest(ctx(k), async (tx) => tx.query('select 1')))
await time('raw insert superuser no tx', () => d.db.query(`insert into public.contact_submissions (name,email,phone,message,package) values ('Bench','b@x.fr',null,'Benchmark message xx',null)`))
await time('full insert as anon', (k) => d.asRequest(ctx(k), async (tx) => tx.query(`insert into public.contact_submissions (name,email,phone,message,package) select name,email,phone,message,package from json_populate_recordset(null::public.contact_submissions, $1::json)`, [`[${body}]`])))
await d.db.exec('alter table public.contact_submissions disable trigger contact_submissions_rate_limit')
await time('insert as anon, no rate-limit trigger', (k) => d.asRequest(ctx(k), async (tx) => tx.query(`insert into public.contact_submissions (name,email,phone,message,package) select name,email,phone,message,package from json_populate_recordset(null::public.contact_submissions, $1::json)`, [`[${body}]`])))
await d.db.exec('alter table public.contact_submissions disable trigger contact_submissions_normalize')
await time('insert as anon, no triggers', (k) => d.asRequest(ctx(k), async (tx) => tx.query(`insert into public.contact_submissions (name,email,phone,message,package) select name,email,phone,message,package from json_populate_recordset(null::public.contact_submissions, $1::json)`, [`[${body}]`])))
