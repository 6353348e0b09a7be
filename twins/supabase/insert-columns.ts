import type { Database } from './database.ts'
import { QueryError, quoteIdent, type Table } from './postgrest-query.ts'

/*
 * What an insert writes, as PostgREST decides it: its columns (the JSON keys, or \`?columns=\`), their
 * defaults (\`Prefer: missing=default\`), and what a conflict does (\`Prefer: resolution=…\`, on
 * \`on_conflict\` or the primary key).
 */

/** `Prefer: resolution=…`, on `on_conflict=a,b` or else the primary key, as PostgREST (supabase-js upsert). */
export async function upsertClause(
  database: Database,
  onConflict: string | null,
  resolution: string | undefined,
  keys: string[],
  table: Table,
): Promise<string> {
  if (resolution !== 'ignore-duplicates' && resolution !== 'merge-duplicates') return ''
  const names = onConflict ? onConflict.split(',').map((name) => name.trim()) : await primaryKey(database, table)
  // No on_conflict and no primary key: PostgREST inserts plainly (and applies no resolution).
  if (names.length === 0) return ''
  const target = names.map((name) => {
    if (!table.columns.has(name)) throw missingColumn(name, table)
    return quoteIdent(name)
  })
  if (resolution === 'ignore-duplicates') return ` on conflict (${target.join(', ')}) do nothing`
  const updates = keys.map((key) => `${quoteIdent(key)} = excluded.${quoteIdent(key)}`)
  return updates.length
    ? ` on conflict (${target.join(', ')}) do update set ${updates.join(', ')}`
    : ` on conflict (${target.join(', ')}) do nothing`
}

/** The table's primary key columns, in key order (none for a table without one). */
export async function primaryKey(database: Database, table: Table): Promise<string[]> {
  const { rows } = await database.db.query<{ name: string }>(
    `select a.attname as name from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = to_regclass($1) and i.indisprimary order by array_position(i.indkey, a.attnum)`,
    [`public.${quoteIdent(table.name)}`],
  )
  return rows.map((row) => row.name)
}

/**
 * Each column's DEFAULT expression (from the migrations, so trusted SQL), an identity column's its
 * sequence's next value; generated columns left out.
 */
export async function columnDefaults(database: Database, table: Table): Promise<Map<string, string>> {
  const { rows } = await database.db.query<{ name: string; expression: string }>(
    `select a.attname as name, coalesce(pg_get_expr(d.adbin, d.adrelid),
         format('nextval(%L::regclass)', pg_get_serial_sequence($1, a.attname))) as expression
       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = to_regclass($1) and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        and (d.adbin is not null or a.attidentity <> '')`,
    [`public.${quoteIdent(table.name)}`],
  )
  return new Map(rows.map((row) => [row.name, `(${row.expression})`]))
}

export function missingColumn(key: string, table: Table) {
  return new QueryError('PGRST204', `Could not find the '${key}' column of '${table.name}' in the schema cache`)
}

export function insertColumns(columnsParam: string | null, objects: Record<string, unknown>[], table: Table): string[] {
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
