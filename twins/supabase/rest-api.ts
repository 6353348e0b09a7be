import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { send, sendJson } from '../http-kit.ts'
import { parseJsonBody } from './gateway.ts'
import type { ApiRole, Claims } from './jwt.ts'
import { callFunction } from './rpc-api.ts'
import { preferenceApplied, singleObject, writeStatement, type StatementResult } from './write-statement.ts'
import { negotiateMedia, readPreferences, type MediaType, type Preferences } from './postgrest-preferences.ts'
import { columnDefaults, insertColumns, missingColumn, primaryKey, upsertClause } from './insert-columns.ts'
import {
  hasFilters,
  orderClause,
  pagination,
  QueryError,
  quoteIdent,
  selectList,
  SqlBuilder,
  whereClause,
  type Table,
} from './postgrest-query.ts'

/*
 * /rest/v1: PostgREST's behaviour for tables in the public schema (twins/docs/supabase-wire.md
 * §1–§4). Response JSON is built in SQL, as PostgREST does, so dates and numbers look identical.
 */

type PgError = { code?: string; message?: string; detail?: string; hint?: string }

type RestRequest = {
  request: IncomingMessage
  response: ServerResponse
  url: URL
  body: string
  role: ApiRole
  claims: Claims
  headers: Record<string, string>
  extraHeaders: Record<string, string>
}

/**
 * PostgREST's SQLSTATE → HTTP status mapping (docs/errors.rst), with one deviation: a statement
 * timeout (57014) answers 504, not 500, as the gateway in front of PostgREST would.
 */
export function statusForSqlState(code: string, role: ApiRole): number {
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2))
  if (code === '57014') return 504
  if (code === '23505' || code === '23503') return 409
  if (code === '25006') return 405
  if (code === '42883' || code === '42P01') return 404
  if (code === 'P0001') return 400
  if (code.startsWith('08') || code.startsWith('53')) return 503
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403
  if (code.startsWith('54')) return 413
  if (['09', '25', '2D', '38', '39', '3B', '40', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(code.slice(0, 2)))
    return 500
  return 400
}

export function errorBody(code: string, message: string, details: string | null = null, hint: string | null = null) {
  return { code, details, hint, message }
}

export async function handleRest(context: RestRequest, database: Database): Promise<void> {
  const { request, response, url, role, extraHeaders } = context
  const method = request.method ?? 'GET'
  const rawName = url.pathname.replace(/^\/rest\/v1\/?/, '')
  // A name that does not even decode (bad percent-encoding) names no table either.
  const tableName = decodedOrNull(rawName) ?? rawName
  const fail = (status: number, body: ReturnType<typeof errorBody>) =>
    sendJson(response, status, body, { ...extraHeaders, ...(status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}) })

  const profile = request.headers['accept-profile'] ?? request.headers['content-profile']
  if (profile && profile !== 'public') {
    return fail(406, errorBody('PGRST106', 'The schema must be one of the following: public', null, null))
  }
  // rpc/<function>: supabase.rpc (rpc-api.ts).
  const rpc = /^rpc\/([^/]+)$/.exec(tableName)?.[1]
  const columns = database.schema.get(tableName)
  if (rpc === undefined && (!tableName || tableName.includes('/') || !columns)) {
    return fail(404, errorBody('PGRST205', `Could not find the table 'public.${tableName}' in the schema cache`))
  }

  try {
    const { claims, headers, body } = context
    // Every method: a preference or a media type the twin does not carry out is refused, never dropped.
    const prefer = readPreferences(request.headers.prefer)
    const accept = request.headers.accept
    const result =
      rpc !== undefined
        ? (negotiateMedia(accept, ['json']),
          await callFunction(database, { role, claims, method, headers, body, query: url.searchParams, prefer }, rpc))
        : await runStatement(
            context,
            database,
            { name: tableName, columns: columns! },
            method,
            prefer,
            negotiateMedia(accept),
          )
    send(response, result.status, result.body, { ...extraHeaders, ...result.headers })
  } catch (error) {
    if (error instanceof QueryError)
      return fail(error.status, errorBody(error.code, error.message, error.details, error.hint))
    const pg = error as PgError
    if (typeof pg?.code === 'string' && pg.code.length === 5) {
      const status = statusForSqlState(pg.code, role)
      return fail(status, errorBody(pg.code, pg.message ?? 'Database error', pg.detail ?? null, pg.hint ?? null))
    }
    throw error
  }
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

async function runStatement(
  context: RestRequest,
  database: Database,
  table: Table,
  method: string,
  prefer: Preferences,
  media: MediaType,
): Promise<StatementResult> {
  const { url, role, claims, headers } = context
  const query = url.searchParams
  const wantsObject = media === 'object'
  const requestContext = {
    role,
    claims,
    method,
    path: `/${table.name}`,
    headers,
    readOnly: method === 'GET' || method === 'HEAD',
  }
  const builder = new SqlBuilder(table)
  const from = `public.${quoteIdent(table.name)}`

  if (method === 'GET' || method === 'HEAD') {
    const columns = selectList(builder, query.get('select'))
    const where = whereClause(builder, query)
    const order = orderClause(builder, query.get('order'))
    const { limit, offset } = pagination(query)
    const pageSql = `select ${columns} from ${from} ${where} ${order} limit ${limit} offset ${offset}`
    const countSql = `select count(*)::int as total from ${from} ${where}`
    const wantsCount = prefer.count !== undefined
    const results = await database.asRequest(requestContext, [
      `select count(*)::int as n, coalesce(json_agg(pgrst_row), '[]')::text as body from (${pageSql}) pgrst_row`,
      ...(wantsCount ? [countSql] : []),
      ...(media === 'csv' ? [csvSql(pageSql)] : []),
    ])
    const rows = results[0].rows[0] as { n: number; body: string }
    const total = wantsCount ? (results[1].rows[0] as { total: number }).total : null
    const range = rows.n > 0 ? `${offset}-${offset + rows.n - 1}/${total ?? '*'}` : `*/${total ?? '*'}`
    // As PostgREST: 416 only when the page starts strictly past the total (offset == total is an empty 206).
    if (total !== null && offset > total) {
      throw new QueryError('PGRST103', 'Requested range not satisfiable', {
        status: 416,
        details: `An offset of ${offset} was requested, but there are only ${total} rows.`,
      })
    }
    if (wantsObject) return singleObject(rows, method === 'HEAD', 200, { 'Content-Range': range })
    const status = total !== null && rows.n < total ? 206 : 200
    if (media === 'csv') {
      const csv = (results[results.length - 1].rows[0] as { body: string }).body
      return {
        status,
        body: method === 'HEAD' ? null : csv,
        headers: { 'Content-Range': range, 'Content-Type': 'text/csv; charset=utf-8' },
      }
    }
    return { status, body: method === 'HEAD' ? null : rows.body, headers: { 'Content-Range': range } }
  }

  if (media === 'csv')
    throw new QueryError('PGRST', 'not supported by the local Supabase server: Accept: text/csv on a write', {
      status: 406,
      details: 'The twin answers CSV to GET and HEAD only',
    })
  if (method !== 'POST' && method !== 'PATCH' && method !== 'DELETE')
    throw new QueryError('PGRST117', `Unsupported HTTP method: ${method}`, { status: 405 })

  const parsed = method === 'DELETE' ? ({ ok: true, value: null } as const) : parseJsonBody(context.body)
  // Nested past the twins' limit (MAX_JSON_DEPTH): answered as Postgres refuses JSON nested past its
  // stack (54001, which PostgREST answers 413), though Postgres' own limit is thousands of levels.
  if (!parsed.ok && parsed.tooDeep)
    throw new QueryError('54001', 'stack depth limit exceeded', { status: 413, details: parsed.message })
  if (!parsed.ok) throw new QueryError('PGRST102', 'Empty or invalid json', { details: parsed.message })
  const returning = prefer.return === 'representation'
  const returnColumns = returning ? selectList(builder, query.get('select')) : ''
  const write = { prefer, wantsObject, returning, returnColumns, table: table.name, target: quoteIdent(table.name) }

  if (method === 'POST') {
    const payload = parsed.value
    const objects = Array.isArray(payload) ? payload : [payload]
    if (objects.length === 0) {
      if (wantsObject) singleObject({ n: 0, body: '[]' }, false, 201, {})
      return {
        status: 201,
        body: returning ? '[]' : null,
        headers: { 'Content-Range': `*/${prefer.count === 'exact' ? 0 : '*'}`, ...preferenceApplied(prefer, 'POST') },
      }
    }
    if (objects.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) {
      throw new QueryError('PGRST102', 'All object keys must match', {
        details: 'The body must be a JSON object or an array of objects',
      })
    }
    const listed = insertColumns(query.get('columns'), objects as Record<string, unknown>[], table)
    // missing=default: a listed column no object has is left out, so its DEFAULT (even an identity
    // GENERATED ALWAYS, which takes no value) applies as Postgres applies it.
    const keys =
      prefer.missing === 'default' && listed.some((key) => objects.some((object) => key in object))
        ? listed.filter((key) => objects.some((object) => key in object))
        : listed
    if (keys.length === 0 && objects.length > 1) throw new QueryError('PGRST102', 'All object keys must match')
    const payloadSql = builder.param(JSON.stringify(objects), 'json')
    let insert: string
    if (keys.length === 0) insert = `insert into ${from} default values`
    else if (prefer.missing === 'default' && query.get('columns') !== null) {
      // Prefer: missing=default: a listed key an object lacks takes the column's DEFAULT, not NULL.
      const defaults = await columnDefaults(database, table)
      const values = keys.map(
        (key) =>
          `case when pgrst_elem ? ${builder.param(key, 'text')} then pgrst_rec.${quoteIdent(key)} else ${defaults.get(key) ?? 'null'} end`,
      )
      insert = `insert into ${from} (${keys.map(quoteIdent).join(', ')}) select ${values.join(', ')} from jsonb_array_elements(${payloadSql}::jsonb) with ordinality as pgrst_body(pgrst_elem, pgrst_n) cross join lateral jsonb_populate_record(null::${from}, pgrst_elem) as pgrst_rec order by pgrst_n`
    } else
      insert = `insert into ${from} (${keys.map(quoteIdent).join(', ')}) select ${keys.map(quoteIdent).join(', ')} from json_populate_recordset(null::${from}, ${payloadSql})`
    const upsert = await upsertClause(database, query.get('on_conflict'), prefer.resolution, keys, table)
    const applied = upsert ? prefer : { ...prefer, resolution: undefined }
    const locationKey = prefer.return === 'headers-only' ? await primaryKey(database, table) : undefined
    return writeStatement(database, requestContext, insert + upsert, 'POST', {
      ...write,
      prefer: applied,
      countInserted: upsert.includes(' do update '),
      locationKey,
    })
  }

  if (method === 'PATCH') {
    const payload = parsed.value
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      throw new QueryError('PGRST102', 'Empty or invalid json', { details: 'PATCH expects one JSON object' })
    }
    // ?columns= writes those columns only (a listed one the object lacks is set to NULL), as PostgREST.
    const listed = query.get('columns')
    const keys =
      listed !== null ? insertColumns(listed, [payload as Record<string, unknown>], table) : Object.keys(payload)
    for (const key of keys) if (!table.columns.has(key)) throw missingColumn(key, table)
    if (keys.length === 0) return { status: 204, body: null, headers: {} }
    if (!hasFilters(url.searchParams)) throw new QueryError('21000', 'UPDATE requires a WHERE clause')
    const source = builder.param(JSON.stringify(payload), 'json')
    const where = targetRows(builder, query, from)
    const set =
      keys.length === 1
        ? `${quoteIdent(keys[0])} = (select ${quoteIdent(keys[0])} from json_populate_record(null::${from}, ${source}))`
        : `(${keys.map(quoteIdent).join(', ')}) = (select ${keys.map(quoteIdent).join(', ')} from json_populate_record(null::${from}, ${source}))`
    return writeStatement(database, requestContext, `update ${from} set ${set} ${where}`, 'PATCH', write)
  }

  if (!hasFilters(url.searchParams)) throw new QueryError('21000', 'DELETE requires a WHERE clause')
  const where = targetRows(builder, query, from)
  return writeStatement(database, requestContext, `delete from ${from} ${where}`, 'DELETE', write)
}

/**
 * The rows a PATCH or DELETE touches: its filters, and with `limit`/`offset` only that many of them in
 * the given order (PostgREST's limited update and delete, by ctid); a limit without an order is refused.
 */
function targetRows(builder: SqlBuilder, query: URLSearchParams, from: string): string {
  const where = whereClause(builder, query)
  if (!query.has('limit') && !query.has('offset')) return where
  const order = orderClause(builder, query.get('order'))
  if (!order)
    throw new QueryError('PGRST109', "A 'limit' was applied without an explicit 'order'", {
      hint: "Apply an 'order' using unique column(s)",
    })
  const { limit, offset } = pagination(query)
  return `where ctid = any(array(select ctid from ${from} ${where} ${order} limit ${limit} offset ${offset}))`
}

/** The page as PostgREST writes CSV: the first row's keys, then each row as Postgres prints a record,
 *  parentheses dropped (so `t`/`f` booleans, quotes around text with spaces, commas or quotes). */
function csvSql(pageSql: string): string {
  return `select (select coalesce(string_agg(a.k, ','), '') from (select json_object_keys(r)::text as k from (select row_to_json(hh) as r from (${pageSql}) hh limit 1) s) a)
    || E'\\n' || coalesce(string_agg(substring(pgrst_t::text, 2, length(pgrst_t::text) - 2), E'\\n'), '') as body
    from (${pageSql}) pgrst_t`
}
