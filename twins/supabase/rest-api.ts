import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database.ts'
import { send, sendJson } from '../http-kit.ts'
import { parseJsonBody } from './gateway.ts'
import type { ApiRole, Claims } from './jwt.ts'
import { callFunction } from './rpc-api.ts'
import {
  hasFilters,
  orderClause,
  pagination,
  parsePrefer,
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
    const result =
      rpc !== undefined
        ? await callFunction(database, { role, claims, method, headers, body }, rpc)
        : await runStatement(context, database, { name: tableName, columns: columns! }, method)
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

type StatementResult = { status: number; body: string | null; headers: Record<string, string> }

async function runStatement(
  context: RestRequest,
  database: Database,
  table: Table,
  method: string,
): Promise<StatementResult> {
  const { request, url, role, claims, headers } = context
  const query = url.searchParams
  const prefer = parsePrefer(request.headers.prefer)
  const wantsObject = (request.headers.accept ?? '').includes('application/vnd.pgrst.object+json')
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
    const wantsCount = prefer.count === 'exact' || prefer.count === 'planned' || prefer.count === 'estimated'
    const results = await database.asRequest(requestContext, [
      `select count(*)::int as n, coalesce(json_agg(pgrst_row), '[]')::text as body from (${pageSql}) pgrst_row`,
      ...(wantsCount ? [countSql] : []),
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
    if (wantsObject) return singleObject(rows, method, range)
    const status = total !== null && rows.n < total ? 206 : 200
    return { status, body: method === 'HEAD' ? null : rows.body, headers: { 'Content-Range': range } }
  }

  const parsed = parseJsonBody(context.body)
  // Nested past the twins' limit (MAX_JSON_DEPTH): answered as Postgres refuses JSON nested past its
  // stack (54001, which PostgREST answers 413), though Postgres' own limit is thousands of levels.
  if (!parsed.ok && parsed.tooDeep)
    throw new QueryError('54001', 'stack depth limit exceeded', { status: 413, details: parsed.message })
  if (!parsed.ok) throw new QueryError('PGRST102', 'Empty or invalid json', { details: parsed.message })
  const returning = prefer.return === 'representation'
  const returnColumns = returning ? selectList(builder, query.get('select')) : ''

  if (method === 'POST') {
    const payload = parsed.value
    const objects = Array.isArray(payload) ? payload : [payload]
    if (objects.length === 0) return { status: 201, body: returning ? '[]' : null, headers: { 'Content-Range': '*/*' } }
    if (objects.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) {
      throw new QueryError('PGRST102', 'All object keys must match', {
        details: 'The body must be a JSON object or an array of objects',
      })
    }
    const keys = insertColumns(query.get('columns'), objects as Record<string, unknown>[], table)
    const insert =
      keys.length === 0
        ? `insert into ${from} default values`
        : `insert into ${from} (${keys.map(quoteIdent).join(', ')}) select ${keys.map(quoteIdent).join(', ')} from json_populate_recordset(null::${from}, ${builder.param(JSON.stringify(objects), 'json')})`
    if (keys.length === 0 && objects.length > 1) throw new QueryError('PGRST102', 'All object keys must match')
    return writeStatement(
      database,
      requestContext,
      builder,
      insert + upsertClause(query.get('on_conflict'), prefer.resolution, keys, table),
      returnColumns,
      returning,
      201,
    )
  }

  if (method === 'PATCH') {
    const payload = parsed.value
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      throw new QueryError('PGRST102', 'Empty or invalid json', { details: 'PATCH expects one JSON object' })
    }
    const keys = Object.keys(payload)
    for (const key of keys) if (!table.columns.has(key)) throw missingColumn(key, table)
    if (keys.length === 0) return { status: 204, body: null, headers: {} }
    if (!hasFilters(url.searchParams)) throw new QueryError('21000', 'UPDATE requires a WHERE clause')
    const source = builder.param(JSON.stringify(payload), 'json')
    const where = whereClause(builder, query)
    const set =
      keys.length === 1
        ? `${quoteIdent(keys[0])} = (select ${quoteIdent(keys[0])} from json_populate_record(null::${from}, ${source}))`
        : `(${keys.map(quoteIdent).join(', ')}) = (select ${keys.map(quoteIdent).join(', ')} from json_populate_record(null::${from}, ${source}))`
    return writeStatement(
      database,
      requestContext,
      builder,
      `update ${from} set ${set} ${where}`,
      returnColumns,
      returning,
      200,
    )
  }

  if (method === 'DELETE') {
    if (!hasFilters(url.searchParams)) throw new QueryError('21000', 'DELETE requires a WHERE clause')
    const where = whereClause(builder, query)
    return writeStatement(
      database,
      requestContext,
      builder,
      `delete from ${from} ${where}`,
      returnColumns,
      returning,
      200,
    )
  }

  throw new QueryError('PGRST117', `Unsupported HTTP method: ${method}`, { status: 405 })
}

/** `Prefer: resolution=…` with `on_conflict=a,b` (supabase-js upsert). */
function upsertClause(onConflict: string | null, resolution: string | undefined, keys: string[], table: Table): string {
  if (resolution !== 'ignore-duplicates' && resolution !== 'merge-duplicates') return ''
  if (!onConflict)
    throw new QueryError('PGRST100', 'on_conflict is required for an upsert here', {
      hint: 'Pass onConflict to upsert()',
    })
  const target = onConflict.split(',').map((name) => {
    if (!table.columns.has(name.trim())) throw missingColumn(name.trim(), table)
    return quoteIdent(name.trim())
  })
  if (resolution === 'ignore-duplicates') return ` on conflict (${target.join(', ')}) do nothing`
  const updates = keys.map((key) => `${quoteIdent(key)} = excluded.${quoteIdent(key)}`)
  return updates.length
    ? ` on conflict (${target.join(', ')}) do update set ${updates.join(', ')}`
    : ` on conflict (${target.join(', ')}) do nothing`
}

function missingColumn(key: string, table: Table) {
  return new QueryError('PGRST204', `Could not find the '${key}' column of '${table.name}' in the schema cache`)
}

function insertColumns(columnsParam: string | null, objects: Record<string, unknown>[], table: Table): string[] {
  const keys =
    columnsParam !== null
      ? columnsParam.split(',').map((key) => key.trim().replace(/^"(.*)"$/, '$1'))
      : Object.keys(objects[0])
  for (const key of keys) if (!table.columns.has(key)) throw missingColumn(key, table)
  if (columnsParam === null) {
    const signature = [...keys].sort().join('\u0000')
    for (const object of objects) {
      if (Object.keys(object).sort().join('\u0000') !== signature)
        throw new QueryError('PGRST102', 'All object keys must match')
    }
  }
  return keys
}

async function writeStatement(
  database: Database,
  requestContext: Parameters<Database['asRequest']>[0],
  builder: SqlBuilder,
  statement: string,
  returnColumns: string,
  returning: boolean,
  successStatus: number,
): Promise<StatementResult> {
  if (!returning) {
    const affected = (await database.asRequest(requestContext, [statement]))[0].affectedRows ?? 0
    const status = successStatus === 201 ? 201 : 204
    return { status, body: null, headers: { 'Content-Range': affected > 0 ? `0-${affected - 1}/*` : '*/*' } }
  }
  const sql = `with pgrst_source as (${statement} returning *) select count(*)::int as n, coalesce(json_agg(pgrst_row), '[]')::text as body from (select ${returnColumns} from pgrst_source) pgrst_row`
  const rows = (await database.asRequest(requestContext, [sql]))[0].rows[0] as { n: number; body: string }
  return {
    status: successStatus,
    body: rows.body,
    headers: { 'Content-Range': rows.n > 0 ? `0-${rows.n - 1}/*` : '*/*' },
  }
}

function singleObject(rows: { n: number; body: string }, method: string, range: string): StatementResult {
  if (rows.n !== 1) {
    throw new QueryError('PGRST116', 'Cannot coerce the result to a single JSON object', {
      status: 406,
      details: `The result contains ${rows.n} rows`,
    })
  }
  const object = JSON.stringify((JSON.parse(rows.body) as unknown[])[0])
  return {
    status: 200,
    body: method === 'HEAD' ? null : object,
    headers: { 'Content-Range': range, 'Content-Type': 'application/vnd.pgrst.object+json; charset=utf-8' },
  }
}
