import type { Database } from './database.ts'
import type { Preferences } from './postgrest-preferences.ts'
import { QueryError, quoteIdent } from './postgrest-query.ts'

/*
 * A write to a table (POST, PATCH, DELETE) carried out as PostgREST 12 carries it out: in one
 * transaction that commits or rolls back as the request's preferences say, with the status, the
 * `Content-Range`, `Location` and `Preference-Applied` PostgREST answers.
 */

export type StatementResult = { status: number; body: string | null; headers: Record<string, string> }

/** `Preference-Applied`: the preferences a write carried out, in PostgREST's order. */
export function preferenceApplied(prefer: Preferences, method: string): Record<string, string> {
  const applied = [
    prefer.resolution && `resolution=${prefer.resolution}`,
    prefer.missing && `missing=${prefer.missing}`,
    prefer.return && `return=${prefer.return}`,
    prefer.count && `count=${prefer.count}`,
    prefer.tx && `tx=${prefer.tx}`,
    prefer.handling && `handling=${prefer.handling}`,
    method !== 'POST' && prefer.handling === 'strict' && prefer.maxAffected !== undefined
      ? `max-affected=${prefer.maxAffected}`
      : undefined,
  ].filter(Boolean)
  return applied.length ? { 'Preference-Applied': applied.join(', ') } : {}
}

export type WriteOptions = {
  prefer: Preferences
  wantsObject: boolean
  returning: boolean
  returnColumns: string
  /** An upsert that may update (merge-duplicates): 200 when it inserted nothing, as PostgREST 12. */
  countInserted?: boolean
  /** `return=headers-only` on an insert into a table with a primary key: its columns, for `Location`. */
  locationKey?: string[]
  /** The written table: its name (for `Location`) and its quoted name (its whole row, in RETURNING). */
  table: string
  target: string
}

/**
 * A write in a transaction of its own that ends as PostgREST ends it: rolled back for `Prefer:
 * tx=rollback`, for a `.single()` write that did not touch exactly one row (406 PGRST116), and for an
 * update or delete past `max-affected` under handling=strict (400 PGRST124); committed otherwise.
 */
export async function writeStatement(
  database: Database,
  requestContext: Parameters<Database['asRequest']>[0],
  statement: string,
  method: 'POST' | 'PATCH' | 'DELETE',
  { prefer, wantsObject, returning, returnColumns, countInserted, locationKey, table, target }: WriteOptions,
): Promise<StatementResult> {
  // Only what the answer needs is RETURNed: without a representation, nothing (the role may insert
  // what it may not read back); an upsert's inserted rows by `xmax = 0`; the key `Location` names.
  const returned = [
    returning ? `${target} as pgrst_rec` : '',
    countInserted ? '(xmax = 0) as pgrst_inserted' : '',
    locationKey?.length
      ? `json_build_object(${locationKey.map((key) => `'${key.replace(/'/g, "''")}', ${quoteIdent(key)}`).join(', ')}) as pgrst_key`
      : '',
  ].filter(Boolean)
  const sql = returned.length
    ? `with pgrst_write as (${statement} returning ${returned.join(', ')})
       select (select count(*)::int from pgrst_write) as n,
         ${returning ? `(select coalesce(json_agg(pgrst_row), '[]')::text from (select ${returnColumns} from (select (pgrst_rec).* from pgrst_write) pgrst_source) pgrst_row)` : 'null'} as body,
         ${countInserted ? '(select count(*)::int from pgrst_write where pgrst_inserted)' : 'null'} as inserted,
         ${locationKey?.length ? '(select pgrst_key::text from pgrst_write limit 1)' : 'null'} as key`
    : statement
  type Returned = { n: number; body: string | null; inserted: number | null; key: string | null }
  const affected = (result: { rows: Record<string, unknown>[]; affectedRows?: number }) =>
    returned.length ? (result.rows[0] as Returned).n : (result.affectedRows ?? 0)
  const maxAffected = method !== 'POST' && prefer.handling === 'strict' ? prefer.maxAffected : undefined
  const [result] = await database.asRequest(requestContext, [sql], (results) => {
    const n = affected(results[0])
    if (wantsObject) singleObject({ n, body: '[]' }, true, 200, {})
    if (maxAffected !== undefined && n > maxAffected)
      throw new QueryError('PGRST124', 'Query result exceeds max-affected preference constraint', {
        details: `The query affects ${n} rows`,
      })
    return prefer.tx !== 'rollback'
  })
  const n = affected(result)
  const row = returned.length ? (result.rows[0] as Returned) : null
  const total = prefer.count === 'exact' ? String(n) : '*'
  // PostgREST: an insert's range is always `*`; an update's or a delete's the rows it touched.
  const range = method === 'POST' || n === 0 ? `*/${total}` : `0-${n - 1}/${total}`
  const headers: Record<string, string> = { 'Content-Range': range, ...preferenceApplied(prefer, method) }
  if (row?.key) {
    const key = JSON.parse(row.key) as Record<string, unknown>
    const filters = Object.entries(key).map(
      ([name, value]) => `${encodeURIComponent(name)}=eq.${encodeURIComponent(String(value))}`,
    )
    headers.Location = `/${table}?${filters.join('&')}`
  }
  // PostgREST 12 (PR #2926): an upsert that inserted no row is 200, not 201.
  const status = method === 'POST' ? (countInserted && row?.inserted === 0 ? 200 : 201) : returning ? 200 : 204
  if (!returning) return { status, body: null, headers }
  const body = row!.body!
  if (wantsObject) return singleObject({ n, body }, false, status, headers)
  return { status, body, headers }
}

/** `Accept: application/vnd.pgrst.object+json` (`.single()`): exactly one row, answered as an object. */
export function singleObject(
  rows: { n: number; body: string },
  bodiless: boolean,
  status: number,
  headers: Record<string, string>,
): StatementResult {
  if (rows.n !== 1) {
    throw new QueryError('PGRST116', 'JSON object requested, multiple (or no) rows returned', {
      status: 406,
      details: `The result contains ${rows.n} rows`,
    })
  }
  const object = bodiless ? null : JSON.stringify((JSON.parse(rows.body) as unknown[])[0])
  return {
    status,
    body: object,
    headers: { ...headers, 'Content-Type': 'application/vnd.pgrst.object+json; charset=utf-8' },
  }
}
