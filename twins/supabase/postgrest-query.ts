import type { ColumnInfo } from './schema-cache.ts'

/*
 * The subset of PostgREST's URL grammar the app and our scripts use, turned into parameterised SQL:
 * select (columns, aliases), horizontal filters with eq/neq/gt/gte/lt/lte/like/ilike/match/imatch/
 * is/in and not., logical or=(…)/and=(…) groups with quoted values, order, limit and offset.
 * Every column is checked against the schema cache and every value is a bind parameter.
 */

export class QueryError extends Error {
  readonly code: string
  readonly status: number
  readonly details: string | null
  readonly hint: string | null

  constructor(
    code: string,
    message: string,
    {
      status = 400,
      details = null,
      hint = null,
    }: { status?: number; details?: string | null; hint?: string | null } = {},
  ) {
    super(message)
    this.code = code
    this.status = status
    this.details = details
    this.hint = hint
  }
}

export const MAX_ROWS = 1000
const RESERVED = new Set([
  'select',
  'order',
  'limit',
  'offset',
  'columns',
  'on_conflict',
  'or',
  'and',
  'not.or',
  'not.and',
])
const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }
const PATTERNS: Record<string, string> = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' }
const IS_VALUES: Record<string, string> = {
  null: 'is null',
  not_null: 'is not null',
  true: 'is true',
  false: 'is false',
  unknown: 'is unknown',
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * A string literal. standard_conforming_strings is on (Postgres' default since 9.1), so only quotes
 * need doubling. NUL cannot be in a Postgres text, and must not cut a query short: refused up front.
 */
export function quoteLiteral(value: string): string {
  if (value.includes('\u0000'))
    throw new QueryError('22P05', 'unsupported Unicode escape sequence', {
      details: '\\u0000 cannot be converted to text.',
    })
  return `'${value.replaceAll("'", "''")}'`
}

export type Table = { name: string; columns: Map<string, ColumnInfo> }

export class SqlBuilder {
  readonly table: Table

  constructor(table: Table) {
    this.table = table
  }

  /**
   * A value as a typed SQL literal. The whole request then travels to PGlite as one simple-query
   * string (one round trip, one implicit transaction) instead of four bind/execute calls.
   */
  param(value: string | string[], cast: string): string {
    if (Array.isArray(value)) return `array[${value.map(quoteLiteral).join(', ')}]::text[]::${cast}`
    return `${quoteLiteral(value)}::${cast}`
  }

  column(name: string): ColumnInfo {
    const column = this.table.columns.get(name)
    if (!column) throw new QueryError('42703', `column ${this.table.name}.${name} does not exist`)
    return column
  }
}

/** Splits on a separator at depth 0, outside double quotes. */
function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let current = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      current += char
      if (char === '\\' && i + 1 < text.length) current += text[++i]
      else if (char === '"') quoted = false
      continue
    }
    if (char === '"') quoted = true
    else if (char === '(') depth++
    else if (char === ')') depth--
    if (depth < 0) throw new QueryError('PGRST100', `"failed to parse logic tree (${text})" (unbalanced parentheses)`)
    if (char === separator && depth === 0) {
      parts.push(current)
      current = ''
    } else current += char
  }
  if (quoted || depth !== 0)
    throw new QueryError('PGRST100', `"failed to parse logic tree (${text})" (unbalanced quotes or parentheses)`)
  parts.push(current)
  return parts
}

/** A value inside or=(…)/in.(…) may be double-quoted, with backslash escapes. */
function unquote(value: string): string {
  const trimmed = value
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replace(/\\(.)/g, '$1')
  }
  return trimmed
}

/** `op.value` (optionally `not.op.value`) applied to one column. */
function operatorCondition(builder: SqlBuilder, columnName: string, expression: string, inLogicTree: boolean): string {
  const column = builder.column(columnName)
  const ident = quoteIdent(column.name)
  let rest = expression
  let negate = false
  if (rest.startsWith('not.')) {
    negate = true
    rest = rest.slice(4)
  }
  const dot = rest.indexOf('.')
  if (dot < 0)
    throw new QueryError('PGRST100', `"failed to parse filter (${expression})"`, {
      details: `unexpected end of input, expecting operator`,
    })
  const operator = rest.slice(0, dot)
  const rawValue = rest.slice(dot + 1)
  const value = inLogicTree ? unquote(rawValue) : rawValue
  let condition: string
  if (operator in COMPARISONS) {
    condition = `${ident} ${COMPARISONS[operator]} ${builder.param(value, column.type)}`
  } else if (operator in PATTERNS) {
    const pattern = operator === 'like' || operator === 'ilike' ? value.replaceAll('*', '%') : value
    condition = `${ident}::text ${PATTERNS[operator]} ${builder.param(pattern, 'text')}`
  } else if (operator === 'is') {
    const sql = IS_VALUES[value.toLowerCase()]
    if (!sql)
      throw new QueryError('PGRST100', `"failed to parse filter (${expression})"`, {
        details: 'is accepts null, not_null, true, false or unknown',
      })
    condition = `${ident} ${sql}`
  } else if (operator === 'in') {
    if (!value.startsWith('(') || !value.endsWith(')'))
      throw new QueryError('PGRST100', `"failed to parse filter (${expression})"`, {
        details: 'in expects a list like in.(a,b)',
      })
    const inner = value.slice(1, -1)
    const items = inner === '' ? [] : splitTopLevel(inner).map(unquote)
    condition = `${ident} = any(${builder.param(items, `${column.type}[]`)})`
  } else {
    throw new QueryError('PGRST100', `"failed to parse filter (${expression})"`, {
      details: `unknown operator "${operator}"`,
    })
  }
  return negate ? `not (${condition})` : condition
}

/**
 * How deep the parentheses of an or=(…)/and=(…) tree may nest (its groups, and an in.(…) list at the
 * bottom). PostgREST documents no such limit (Postgres refuses SQL nested past its stack). Here the
 * tree is parsed by recursion, once per level, and PGlite's Postgres, on a WebAssembly stack smaller
 * than a server's, overflowed on the SQL of a tree 2,000 deep under a row policy: a 500, not an
 * answer. Real filters nest two or three levels (the site's search, one); 100 is the twins' JSON depth
 * limit (MAX_JSON_DEPTH in ../http-kit.ts), chosen for the same reasons.
 */
export const MAX_LOGIC_TREE_DEPTH = 100

/** A logic tree's text, refused with PostgREST's parse error when it nests past MAX_LOGIC_TREE_DEPTH:
 *  one pass, outside double quotes as splitTopLevel reads them, before anything recurses into it. */
function boundedLogicTree(text: string): string {
  let depth = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '\\') i++
      else if (char === '"') quoted = false
    } else if (char === '"') quoted = true
    else if (char === ')') depth--
    else if (char === '(' && ++depth > MAX_LOGIC_TREE_DEPTH)
      throw new QueryError('PGRST100', `"failed to parse logic tree (${text})"`, {
        details: `parentheses nested deeper than ${MAX_LOGIC_TREE_DEPTH} levels`,
      })
  }
  return text
}

/** `(a.eq.1,or(b.is.null,c.ilike.*x*))` → SQL joined by `joiner`. */
function logicTree(builder: SqlBuilder, body: string, joiner: 'or' | 'and'): string {
  if (!body.startsWith('(') || !body.endsWith(')'))
    throw new QueryError('PGRST100', `"failed to parse logic tree (${body})"`)
  const items = splitTopLevel(body.slice(1, -1))
  const conditions = items.map((item) => {
    let text = item.trim()
    let negate = false
    if (text.startsWith('not.')) {
      negate = true
      text = text.slice(4)
    }
    const group = /^(or|and)(\(.*\))$/s.exec(text)
    if (group) {
      const sql = logicTree(builder, group[2], group[1] as 'or' | 'and')
      return negate ? `not ${sql}` : sql
    }
    const dot = text.indexOf('.')
    if (dot < 0) throw new QueryError('PGRST100', `"failed to parse logic tree (${body})"`)
    const sql = operatorCondition(builder, text.slice(0, dot), text.slice(dot + 1), true)
    return negate ? `not (${sql})` : sql
  })
  if (conditions.length === 0) throw new QueryError('PGRST100', `"failed to parse logic tree (${body})"`)
  return `(${conditions.join(` ${joiner} `)})`
}

export function whereClause(builder: SqlBuilder, query: URLSearchParams): string {
  const conditions: string[] = []
  for (const [key, value] of query) {
    if (key === 'or' || key === 'and') conditions.push(logicTree(builder, boundedLogicTree(value), key))
    else if (key === 'not.or' || key === 'not.and')
      conditions.push(`not ${logicTree(builder, boundedLogicTree(value), key.slice(4) as 'or' | 'and')}`)
    else if (!RESERVED.has(key)) conditions.push(operatorCondition(builder, key, value, false))
  }
  return conditions.length ? `where ${conditions.join(' and ')}` : ''
}

export function hasFilters(query: URLSearchParams): boolean {
  for (const key of query.keys())
    if (!RESERVED.has(key) || ['or', 'and', 'not.or', 'not.and'].includes(key)) return true
  return false
}

/** The select list: `*`, `col`, `alias:col`. Embedded resources and casts are not supported here. */
export function selectList(builder: SqlBuilder, select: string | null): string {
  if (select === null || select.trim() === '' || select.trim() === '*') return '*'
  return splitTopLevel(select)
    .map((item) => {
      const text = item.trim()
      if (text === '*') return '*'
      const match = /^(?:([A-Za-z_][A-Za-z0-9_]*):)?([A-Za-z_][A-Za-z0-9_]*)$/.exec(text)
      if (!match)
        throw new QueryError('PGRST100', `"failed to parse select parameter (${select})"`, {
          details: `unsupported select item "${text}"`,
        })
      const column = builder.column(match[2])
      return match[1] ? `${quoteIdent(column.name)} as ${quoteIdent(match[1])}` : quoteIdent(column.name)
    })
    .join(', ')
}

export function orderClause(builder: SqlBuilder, order: string | null): string {
  if (!order) return ''
  const terms = order.split(',').map((term) => {
    const [name, ...modifiers] = term.trim().split('.')
    const column = builder.column(name)
    let sql = quoteIdent(column.name)
    for (const modifier of modifiers) {
      if (modifier === 'asc' || modifier === 'desc') sql += ` ${modifier}`
      else if (modifier === 'nullsfirst') sql += ' nulls first'
      else if (modifier === 'nullslast') sql += ' nulls last'
      else
        throw new QueryError('PGRST100', `"failed to parse order (${order})"`, {
          details: `unknown modifier "${modifier}"`,
        })
    }
    return sql
  })
  return `order by ${terms.join(', ')}`
}

function nonNegativeInteger(name: string, value: string | null): number | null {
  if (value === null) return null
  if (!/^\d{1,9}$/.test(value)) throw new QueryError('PGRST100', `"failed to parse ${name} parameter (${value})"`)
  return Number(value)
}

export function pagination(query: URLSearchParams): { limit: number; offset: number } {
  const limit = nonNegativeInteger('limit', query.get('limit'))
  const offset = nonNegativeInteger('offset', query.get('offset')) ?? 0
  return { limit: Math.min(limit ?? MAX_ROWS, MAX_ROWS), offset }
}
