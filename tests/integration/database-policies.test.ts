import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasInvisibleCharacters } from '@/supabase/functions/_shared/invisible-characters'
import { addAdminAndMember, asRole, type Sql, targets } from './database-targets'

/*
 * Policies and the security advisor's checks, read straight from the database, on PGlite and (when
 * TEST_DATABASE_URL is set, as in CI) on a real PostgreSQL 15 — so nothing works only on PGlite.
 */

const insertSql = `insert into public.contact_submissions (name, email, phone, message, package) values ($1, $2, $3, $4, $5)`
const row = (name = 'Camille Martin') => [name, 'camille@example.fr', null, 'Bonjour, un message de test.', null]
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? 'error',
  )

for (const target of targets) {
  describe(`${target.name}: policies and security advisor checks`, () => {
    let sql: Sql
    const adminId = randomUUID()
    const memberId = randomUUID()
    const asAnon = <T>(work: () => Promise<T>, address = '192.0.2.1') =>
      asRole(sql, 'anon', {}, { 'x-forwarded-for': address }, work)
    const asUser = <T>(id: string, work: () => Promise<T>) =>
      asRole(sql, 'authenticated', { sub: id }, { 'x-forwarded-for': '192.0.2.50' }, work)

    beforeAll(async () => {
      sql = await target.open()
      await addAdminAndMember(sql, adminId, memberId)
    }, 120_000)
    afterAll(() => sql?.close())

    it('anon may insert a valid message, trimmed; invalid ones fail their CHECK', async () => {
      await asAnon(() =>
        sql.query(insertSql, ['  Camille  ', ' camille@example.fr ', '  ', ' Bonjour, un message de test. ', '']),
      )
      const [stored] = await sql.query(`select name, email, phone, message, package from public.contact_submissions`)
      expect(stored).toEqual({
        name: 'Camille',
        email: 'camille@example.fr',
        phone: null,
        message: 'Bonjour, un message de test.',
        package: null,
      })
      expect(await codeOf(asAnon(() => sql.query(insertSql, row('A'))))).toBe('23514')
    })

    it('anon cannot read, update or delete messages, nor call has_role', async () => {
      expect(await codeOf(asAnon(() => sql.query('select * from public.contact_submissions')))).toBe('42501')
      expect(await codeOf(asAnon(() => sql.query('update public.contact_submissions set is_read = true')))).toBe(
        '42501',
      )
      expect(await codeOf(asAnon(() => sql.query('delete from public.contact_submissions')))).toBe('42501')
      expect(await codeOf(asAnon(() => sql.query(`select public.has_role($1, 'admin')`, [adminId])))).toBe('42501')
    })

    it('a signed-in non-admin sees no message and changes none; reads only their own roles', async () => {
      expect(await asUser(memberId, () => sql.query('select * from public.contact_submissions'))).toEqual([])
      expect(
        await asUser(memberId, () => sql.query('update public.contact_submissions set is_read = true returning id')),
      ).toEqual([])
      expect(await asUser(memberId, () => sql.query('delete from public.contact_submissions returning id'))).toEqual([])
      expect(await asUser(memberId, () => sql.query('select * from public.user_roles'))).toEqual([])
      expect(
        await codeOf(
          asUser(memberId, () =>
            sql.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [memberId]),
          ),
        ),
      ).toBe('42501')
    })

    it('an admin reads, marks read and deletes, but cannot rewrite a message', async () => {
      const rows = await asUser(adminId, () => sql.query<{ id: string }>('select id from public.contact_submissions'))
      expect(rows).toHaveLength(1)
      expect(await asUser(adminId, () => sql.query('select role from public.user_roles'))).toEqual([{ role: 'admin' }])
      expect(
        await asUser(adminId, () => sql.query('update public.contact_submissions set is_read = true returning id')),
      ).toHaveLength(1)
      expect(
        await codeOf(
          asUser(adminId, () => sql.query(`update public.contact_submissions set message = 'Rewritten message'`)),
        ),
      ).toBe('42501')
      expect(
        await asUser(adminId, () => sql.query('delete from public.contact_submissions returning id')),
      ).toHaveLength(1)
    })

    it('refuses the 6th message from one address within 10 minutes with PT429', async () => {
      const codes: string[] = []
      for (let i = 0; i < 6; i++) codes.push(await codeOf(asAnon(() => sql.query(insertSql, row()), '203.0.113.9')))
      expect(codes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'PT429'])
      expect(await codeOf(asAnon(() => sql.query(insertSql, row()), '203.0.113.10'))).toBe('ok')
    })

    it('refuses invisible characters in the name and the email (the probe\'s "Bob \\u202egnp.exe"), not in the message', async () => {
      const spoof = ['Bob \u202egnp.exe', 'bob@example.fr', null, 'Bonjour, un message de test.', null]
      const codeAndConstraint = (promise: Promise<unknown>) =>
        promise.then(
          () => 'ok',
          (error: { code?: string; message?: string }) =>
            `${error.code} ${/"(contact_submissions_\w+)"/.exec(error.message ?? '')?.[1]}`,
        )
      expect(await codeAndConstraint(asAnon(() => sql.query(insertSql, spoof), '192.0.2.77'))).toBe(
        '23514 contact_submissions_name_visible_check',
      )
      expect(
        await codeAndConstraint(
          asAnon(
            () => sql.query(insertSql, ['Bob', 'bob\u200b@example.fr', null, 'Bonjour, un message de test.', null]),
            '192.0.2.77',
          ),
        ),
      ).toBe('23514 contact_submissions_email_visible_check')
      expect(
        await codeAndConstraint(
          asAnon(
            () => sql.query(insertSql, ['Bob', 'bob@example.fr', null, 'Voir la pièce \u202ejointe, merci.', null]),
            '192.0.2.77',
          ),
        ),
      ).toBe('ok')
    })

    it('the database and the shared schema agree on every code point about what is invisible', async () => {
      const database = (
        await sql.query<{ cp: number }>(
          `select cp from generate_series(1, 1114111) cp where (cp < 55296 or cp > 57343) and private.has_invisible_characters(chr(cp))`,
        )
      ).map((row) => Number(row.cp))
      const shared: number[] = []
      for (let codePoint = 1; codePoint <= 0x10ffff; codePoint++)
        if ((codePoint < 0xd800 || codePoint > 0xdfff) && hasInvisibleCharacters(String.fromCodePoint(codePoint)))
          shared.push(codePoint)
      expect(database).toEqual(shared)
    }, 120_000)

    it('advisor: row-level security is on for every table in public, and each has a policy', async () => {
      const withoutRls = await sql.query(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
      )
      expect(withoutRls).toEqual([])
      const withoutPolicy = await sql.query(
        `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not exists (select 1 from pg_policy p where p.polrelid = c.oid)`,
      )
      expect(withoutPolicy).toEqual([])
    })

    it('advisor: no function in our schemas has a mutable search_path', async () => {
      const mutable = await sql.query(
        `select n.nspname || '.' || p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname in ('public', 'private') and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) setting where setting like 'search_path=%')`,
      )
      expect(mutable).toEqual([])
    })

    it('advisor: no SECURITY DEFINER function is callable by anon; authenticated may call has_role and the resend request (which checks the admin role itself)', async () => {
      const definers = await sql.query<{ name: string; anon: boolean; authenticated: boolean }>(
        `select n.nspname || '.' || p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon,
                has_function_privilege('authenticated', p.oid, 'execute') as authenticated
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where p.prosecdef and n.nspname in ('public', 'private')`,
      )
      expect(definers.filter((fn) => fn.anon)).toEqual([])
      expect(
        definers
          .filter((fn) => fn.authenticated)
          .map((fn) => fn.name)
          .sort(),
      ).toEqual(['public.has_role', 'public.request_contact_notification_resend'])
    })

    it('advisor: policies call auth.uid() once per statement (wrapped in a sub-select)', async () => {
      const policies = await sql.query<{ policyname: string; qual: string | null; with_check: string | null }>(
        `select policyname, qual, with_check from pg_policies where schemaname = 'public'`,
      )
      expect(policies.length).toBeGreaterThanOrEqual(5)
      for (const policy of policies) {
        const text = `${policy.qual ?? ''} ${policy.with_check ?? ''}`
        const bare = text.replace(/SELECT auth\.uid\(\)/gi, '').match(/auth\.uid\(\)/gi)
        expect(bare, policy.policyname).toBeNull()
      }
    })

    it('the API roles have no privilege on the private schema tables', async () => {
      const privileges = await sql.query(
        `select c.relname, r.rolname from pg_class c join pg_namespace n on n.oid = c.relnamespace cross join pg_roles r
          where n.nspname = 'private' and c.relkind = 'r' and r.rolname in ('anon', 'authenticated')
            and (has_table_privilege(r.oid, c.oid, 'select') or has_table_privilege(r.oid, c.oid, 'insert') or has_table_privilege(r.oid, c.oid, 'update') or has_table_privilege(r.oid, c.oid, 'delete'))`,
      )
      expect(privileges).toEqual([])
    })
  })
}

for (const target of targets) {
  describe(`${target.name}: the invisible-character migration on rows stored before it`, () => {
    it('turns their invisible characters in names and emails into U+FFFD, keeps messages, and validates the constraints', async () => {
      const sql = await target.open({ stopBefore: '20261201100000' })
      try {
        await sql.query(
          `insert into public.contact_submissions (name, email, message) values ($1, $2, $3), ($4, $5, $6)`,
          [
            'Bob \u202egnp.exe',
            'bob\u200b@example.fr',
            'Un message \u202eavec une inversion.',
            'Alice Martin',
            'alice@example.fr',
            'Un message ordinaire.',
          ],
        )
        await sql.migrateRest()
        const rows = await sql.query<{ name: string; email: string; message: string }>(
          `select name, email, message from public.contact_submissions order by name desc`,
        )
        expect(rows).toEqual([
          { name: 'Bob \ufffdgnp.exe', email: 'bob\ufffd@example.fr', message: 'Un message \u202eavec une inversion.' },
          { name: 'Alice Martin', email: 'alice@example.fr', message: 'Un message ordinaire.' },
        ])
        const unvalidated = await sql.query(
          `select conname from pg_constraint where conrelid = 'public.contact_submissions'::regclass and not convalidated`,
        )
        expect(unvalidated).toEqual([])
      } finally {
        await sql.close()
      }
    }, 120_000)
  })
}
