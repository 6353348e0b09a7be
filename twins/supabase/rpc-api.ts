import type { Database, RequestContext } from './database.ts'
import { parseJsonBody } from './gateway.ts'
import { QueryError, quoteIdent, quoteLiteral } from './postgrest-query.ts'

/*
 * /rest/v1/rpc/<name>: PostgREST's function calls (supabase.rpc), the part scripts use: POST with a
 * JSON object of named arguments, a function of the public schema, run under the request's role like
 * any request (so EXECUTE grants decide: anon → 401, another role → 403, as PostgREST answers 42501).
 * Answers: the value as JSON (a set of rows as an array), 204 for a void function, 404 PGRST202 when no
 * function of that name takes those arguments. Left out: GET calls, a single unnamed JSON argument,
 * filters and ordering applied to a set's result.
 */

type Signature = { args: string[]; required: number; returnsSet: boolean; returnsVoid: boolean }

type ProcRow = {
  names: string[] | null
  modes: string[] | null
  nargs: number
  ndefaults: number
  returns_set: boolean
  returns_void: boolean
}

/** The public functions called `name`, with their input arguments' names (of those, the first `required` have no default). */
async function signatures(database: Pick<Database, 'db'>, name: string): Promise<Signature[]> {
  const { rows } = await database.db.query<ProcRow>(
    `select p.proargnames as names, p.proargmodes::text[] as modes, p.pronargs::int as nargs,
            p.pronargdefaults::int as ndefaults, p.proretset as returns_set, p.prorettype = 'void'::regtype as returns_void
       from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = $1 and p.prokind = 'f'`,
    [name],
  )
  return rows.map((row) => {
    const names = row.names ?? []
    // Modes list every argument (out ones too) when any is not "in"; inputs are in, inout, variadic.
    const inputs = row.modes ? names.filter((_, index) => ['i', 'b', 'v'].includes(row.modes![index])) : names
    return {
      args: inputs.slice(0, row.nargs),
      required: row.nargs - row.ndefaults,
      returnsSet: row.returns_set,
      returnsVoid: row.returns_void,
    }
  })
}

const literal = (value: unknown) =>
  value === null
    ? 'null'
    : quoteLiteral(typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean))

export async function callFunction(
  database: Pick<Database, 'db' | 'asRequest'>,
  context: Omit<RequestContext, 'path' | 'readOnly'> & { body: string; rollback?: boolean },
  name: string,
): Promise<{ status: number; body: string | null; headers: Record<string, string> }> {
  if (context.method !== 'POST')
    throw new QueryError('PGRST117', `Unsupported HTTP method: ${context.method}`, { status: 405 })
  const parsed = parseJsonBody(context.body)
  if (!parsed.ok) throw new QueryError('PGRST102', 'Empty or invalid json', { details: parsed.message })
  const given = parsed.value ?? {}
  if (typeof given !== 'object' || Array.isArray(given))
    throw new QueryError('PGRST102', 'Empty or invalid json', { details: 'The arguments must be one JSON object' })
  const keys = Object.keys(given)
  const found = (await signatures(database, name)).find(
    (signature) =>
      keys.every((key) => signature.args.includes(key)) &&
      signature.args.slice(0, signature.required).every((arg) => keys.includes(arg)),
  )
  if (!found) {
    throw new QueryError(
      'PGRST202',
      `Could not find the function public.${name}(${[...keys].sort().join(', ')}) in the schema cache`,
      { status: 404 },
    )
  }
  const args = Object.entries(given as Record<string, unknown>).map(
    ([key, value]) => `${quoteIdent(key)} => ${literal(value)}`,
  )
  const call = `public.${quoteIdent(name)}(${args.join(', ')})`
  const sql = found.returnsVoid
    ? `select ${call}`
    : found.returnsSet
      ? `select coalesce(json_agg(pgrst_row), '[]')::text as body from ${call} pgrst_row`
      : `select to_json(${call})::text as body`
  const rollback = context.rollback === true
  // Prefer: tx=rollback: the call runs and answers as usual, and its transaction is rolled back.
  const [result] = await database.asRequest(
    { ...context, path: `/rpc/${name}`, readOnly: false },
    [sql],
    rollback ? () => false : undefined,
  )
  const headers: Record<string, string> = rollback ? { 'Preference-Applied': 'tx=rollback' } : {}
  if (found.returnsVoid) return { status: 204, body: null, headers }
  return { status: 200, body: (result.rows[0] as { body: string | null }).body ?? 'null', headers }
}
