import type { Database, RequestContext } from './database.ts'
import { parseJsonBody } from './gateway.ts'
import type { Preferences } from './postgrest-preferences.ts'
import type { ColumnInfo } from './schema-cache.ts'
import {
  hasFilters,
  orderClause,
  pagination,
  QueryError,
  quoteIdent,
  quoteLiteral,
  selectList,
  SqlBuilder,
  whereClause,
} from './postgrest-query.ts'

/*
 * /rest/v1/rpc/<name>: PostgREST's function calls (supabase.rpc), the part scripts use: POST with a
 * JSON object of named arguments, or GET/HEAD with them in the query string (as text, which Postgres
 * casts to the parameters' types), a function of the public schema, run under the request's role like
 * any request (so EXECUTE grants decide: anon → 401, another role → 403, as PostgREST answers 42501).
 * GET and HEAD run read-only, as PostgREST runs them: a function that writes fails with 25006 → 405.
 * A set of rows (setof a table, returns table, out parameters) takes the table grammar on its result:
 * filters, select=, order=, limit/offset from the query string (on GET, the keys that are not the
 * function's parameters). Answers: the value as JSON (a set of rows as an array), 204 for a void
 * function, 404 PGRST202 when no function of that name takes those arguments. Arguments reach their
 * parameters through json_to_record, as PostgREST passes them, so a JSON array fills an array (or
 * variadic) parameter and a repeated query key is an array. A function of one unnamed json or jsonb
 * parameter takes the whole body by POST. Left out: one unnamed parameter of another type (PostgREST
 * takes raw text, xml or bytea bodies for it: here no JSON call matches it, 404 PGRST202, as PostgREST
 * answers a JSON body); refused as not supported: filters, select, order or paging on a result that is
 * not a set of rows.
 */

type Signature = {
  args: string[]
  /** Each input argument's type, as format_type writes it (so usable in a column definition list). */
  types: string[]
  /** The last argument is VARIADIC. */
  variadic: boolean
  /** The type of a function's one unnamed parameter (PostgREST passes it the whole body), else null. */
  unnamedSingle: string | null
  required: number
  returnsSet: boolean
  returnsVoid: boolean
  /** The result's columns when it is a set of rows (composite type, returns table, out parameters); else empty. */
  columns: ColumnInfo[]
}

type ProcRow = {
  names: string[] | null
  types: string[]
  variadic: boolean
  modes: string[] | null
  nargs: number
  ndefaults: number
  returns_set: boolean
  returns_void: boolean
  columns: string | null
}

/** The public functions called `name`, with their input arguments' names (of those, the first `required` have no default). */
async function signatures(database: Pick<Database, 'db'>, name: string): Promise<Signature[]> {
  const { rows } = await database.db.query<ProcRow>(
    `select p.proargnames as names, p.provariadic <> 0 as variadic,
            array(select format_type(t, null) from unnest(p.proargtypes) with ordinality u(t, o) order by o) as types,
            p.proargmodes::text[] as modes, p.pronargs::int as nargs,
            p.pronargdefaults::int as ndefaults, p.proretset as returns_set, p.prorettype = 'void'::regtype as returns_void,
            coalesce(
              (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
                               order by a.attnum)
                 from pg_type t join pg_attribute a on a.attrelid = t.typrelid
                where t.oid = p.prorettype and a.attnum > 0 and not a.attisdropped),
              (select json_agg(json_build_object('name', x.name, 'type', format_type(x.type, null)) order by x.ord)
                 from unnest(p.proallargtypes, p.proargmodes::text[], p.proargnames) with ordinality x(type, mode, name, ord)
                where x.mode in ('t', 'o'))
            )::text as columns
       from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = $1 and p.prokind = 'f'`,
    [name],
  )
  return rows.map((row) => {
    const names = row.names ?? []
    // Modes list every argument (out ones too) when any is not "in"; inputs are in, inout, variadic.
    const inputs = row.modes ? names.filter((_, index) => ['i', 'b', 'v'].includes(row.modes![index])) : names
    const unnamed = row.nargs === 1 && !inputs[0]
    return {
      args: unnamed ? [] : inputs.slice(0, row.nargs),
      types: row.types,
      variadic: row.variadic,
      unnamedSingle: unnamed ? row.types[0] : null,
      required: row.nargs - row.ndefaults,
      returnsSet: row.returns_set,
      returnsVoid: row.returns_void,
      columns: row.columns ? (JSON.parse(row.columns) as ColumnInfo[]) : [],
    }
  })
}

/** One argument, read from JSON into its parameter's type as PostgREST reads it (json_to_record). */
function argument(signature: Signature, name: string, value: unknown): string {
  const index = signature.args.indexOf(name)
  const json = quoteLiteral(JSON.stringify({ v: value }))
  const variadic = signature.variadic && index === signature.args.length - 1 ? 'variadic ' : ''
  return `${variadic}${quoteIdent(name)} => (select pgrst_arg.v from json_to_record(${json}::json) as pgrst_arg(v ${signature.types[index]}))`
}

export async function callFunction(
  database: Pick<Database, 'db' | 'asRequest'>,
  context: CallContext,
  name: string,
): Promise<{ status: number; body: string | null; headers: Record<string, string> }> {
  const read = context.method === 'GET' || context.method === 'HEAD'
  if (!read && context.method !== 'POST')
    throw new QueryError('PGRST117', `Unsupported HTTP method: ${context.method}`, { status: 405 })
  const candidates = await signatures(database, name)
  let given: Record<string, unknown>
  let found: Signature | undefined
  // What is left of the query string once the arguments are taken out: the filters on a set's result.
  const query = new URLSearchParams(context.query)
  if (read) {
    // The query string's keys that the signature takes are its arguments (the one taking the most, of
    // those whose required parameters are all there); the other keys filter the set it returns.
    const keys = [...new Set(query.keys())]
    const taken = (signature: Signature) => keys.filter((key) => signature.args.includes(key)).length
    const best = candidates
      .filter((signature) => signature.args.slice(0, signature.required).every((arg) => keys.includes(arg)))
      .sort((a, b) => taken(b) - taken(a))[0]
    const unknown = keys.filter((key) => !['select', 'order', 'limit', 'offset'].includes(key))
    const argumentKeys = best ? keys.filter((key) => best.args.includes(key)) : unknown
    // A key given more than once is an array, and a variadic parameter's always one (as PostgREST).
    const variadic = best?.variadic ? best.args.at(-1) : undefined
    given = Object.fromEntries(
      argumentKeys.map((key) => [
        key,
        query.getAll(key).length > 1 || key === variadic ? query.getAll(key) : query.get(key),
      ]),
    )
    for (const key of argumentKeys) query.delete(key)
    // Left-over keys filter a set of rows; a function returning anything else takes no such arguments.
    if (best && !(best.returnsSet && best.columns.length > 0) && hasFilters(query)) {
      given = Object.fromEntries(unknown.map((key) => [key, context.query.get(key)]))
      found = undefined
    } else found = best
  } else {
    const parsed = parseJsonBody(context.body)
    if (!parsed.ok) throw new QueryError('PGRST102', 'Empty or invalid json', { details: parsed.message })
    // One unnamed json or jsonb parameter takes the whole body; one of another type (a raw text, xml
    // or bytea body, which PostgREST takes under other content types) matches no JSON call: PGRST202.
    const unnamed = candidates.find((signature) => ['json', 'jsonb'].includes(signature.unnamedSingle ?? ''))
    if (unnamed) return callWithBody(database, context, name, unnamed, query)
    const value = parsed.value ?? {}
    if (typeof value !== 'object' || Array.isArray(value))
      throw new QueryError('PGRST102', 'Empty or invalid json', { details: 'The arguments must be one JSON object' })
    given = value as Record<string, unknown>
    const keys = Object.keys(given)
    found = candidates.find(
      (signature) =>
        signature.unnamedSingle === null &&
        keys.every((key) => signature.args.includes(key)) &&
        signature.args.slice(0, signature.required).every((arg) => keys.includes(arg)),
    )
  }
  if (!found) {
    throw new QueryError(
      'PGRST202',
      `Could not find the function public.${name}(${Object.keys(given).sort().join(', ')}) in the schema cache`,
      { status: 404 },
    )
  }
  const args = Object.entries(given).map(([key, value]) => argument(found, key, value))
  return run(database, context, name, found, `public.${quoteIdent(name)}(${args.join(', ')})`, query)
}

/** A function of one unnamed json or jsonb parameter, called with the whole body, as PostgREST calls it. */
function callWithBody(
  database: Pick<Database, 'db' | 'asRequest'>,
  context: CallContext,
  name: string,
  signature: Signature,
  query: URLSearchParams,
) {
  const call = `public.${quoteIdent(name)}(${quoteLiteral(context.body || '{}')}::${signature.unnamedSingle})`
  return run(database, context, name, signature, call, query)
}

type CallContext = Omit<RequestContext, 'path' | 'readOnly'> & {
  body: string
  query: URLSearchParams
  /** The request's Prefer (postgrest-preferences.ts): tx, count, and max-affected under handling=strict. */
  prefer?: Preferences
}

async function run(
  database: Pick<Database, 'db' | 'asRequest'>,
  context: CallContext,
  name: string,
  found: Signature,
  call: string,
  query: URLSearchParams,
): Promise<{ status: number; body: string | null; headers: Record<string, string> }> {
  const read = context.method === 'GET' || context.method === 'HEAD'
  const rows = found.returnsSet && found.columns.length > 0
  if (!rows && (hasFilters(query) || ['select', 'order', 'limit', 'offset'].some((key) => query.has(key))))
    throw new QueryError(
      'PGRST',
      'not supported by the local Supabase server: filters, select, order or paging on a result that is not a set of rows',
      { details: `public.${name} returns ${found.returnsSet ? 'a set of scalars' : 'one value'}` },
    )
  // Every form answers n (rows returned), total (before paging) and body, in one call of the function.
  let sql: string
  let offset = 0
  if (found.returnsVoid) sql = `select 1 as n, 1 as total, null as body from (select ${call}) pgrst_call`
  else if (rows) {
    // The table grammar on the function's rows: its rows once (materialized), then where … order … limit ….
    const builder = new SqlBuilder({ name, columns: new Map(found.columns.map((column) => [column.name, column])) })
    const columns = selectList(builder, query.get('select'))
    const where = whereClause(builder, query)
    const order = orderClause(builder, query.get('order'))
    const paging = pagination(query)
    offset = paging.offset
    sql = `with pgrst_all as materialized (select * from ${call} pgrst_row ${where})
      select count(*)::int as n, (select count(*)::int from pgrst_all) as total, coalesce(json_agg(pgrst_page), '[]')::text as body
        from (select ${columns} from pgrst_all pgrst_row ${order} limit ${paging.limit} offset ${paging.offset}) pgrst_page`
  } else if (found.returnsSet)
    sql = `select count(*)::int as n, count(*)::int as total, coalesce(json_agg(pgrst_row), '[]')::text as body from ${call} pgrst_row`
  else sql = `select 1 as n, 1 as total, to_json(${call})::text as body`
  const prefer = context.prefer ?? {}
  const maxAffected = prefer.handling === 'strict' ? prefer.maxAffected : undefined
  // Prefer: tx=rollback: the call runs and answers as usual, and its transaction is rolled back; so
  // does a call returning more rows than max-affected (handling=strict: 400 PGRST124, as PostgREST 13).
  const [result] = await database.asRequest({ ...context, path: `/rpc/${name}`, readOnly: read }, [sql], (results) => {
    const { n } = results[0].rows[0] as { n: number }
    if (maxAffected !== undefined && n > maxAffected)
      throw new QueryError('PGRST124', 'Query result exceeds max-affected preference constraint', {
        details: `The query affects ${n} rows`,
      })
    return prefer.tx !== 'rollback'
  })
  const { n, total, body } = result.rows[0] as { n: number; total: number; body: string | null }
  const applied = [
    prefer.count && `count=${prefer.count}`,
    prefer.tx && `tx=${prefer.tx}`,
    prefer.handling && `handling=${prefer.handling}`,
    maxAffected !== undefined && `max-affected=${maxAffected}`,
  ].filter(Boolean)
  const headers: Record<string, string> = {
    // As PostgREST: the rows sent, and their total when a count was asked for (counted exactly).
    'Content-Range': `${n > 0 && !found.returnsVoid ? `${offset}-${offset + n - 1}` : '*'}/${prefer.count ? total : '*'}`,
    ...(applied.length ? { 'Preference-Applied': applied.join(', ') } : {}),
  }
  if (found.returnsVoid) return { status: 204, body: null, headers }
  return { status: 200, body: context.method === 'HEAD' ? null : (body ?? 'null'), headers }
}
