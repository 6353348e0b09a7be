import { mkdirSync, rmSync } from 'node:fs'
import type { DatabaseRequest, DatabaseResponse, EngineData, EngineInfo, StatementResult } from './database-worker.ts'
import type { ApiRole } from './jwt.ts'
import { quoteLiteral as literal } from './postgrest-query.ts'
import type { SchemaCache } from './schema-cache.ts'
import { createThrowawayDataDir } from './throwaway-data-dir.ts'
import { startWorker, type WorkerClient } from './worker-rpc.ts'

/*
 * The local database: one PGlite engine in a worker thread (database-worker.ts), used by one caller
 * at a time, as PGlite has a single connection. Statement timeouts: PGlite cannot interrupt a running
 * statement (Postgres' timer is a signal, which WebAssembly never receives), so the server enforces
 * each API role's statement_timeout itself. A request still running at its role's limit is answered
 * 57014 "canceling statement due to statement timeout", as on Supabase; its thread is ended, and a
 * fresh engine recovers the data folder exactly as Postgres recovers from a crash: committed work
 * stays, the cancelled statement's transaction never happened. Callers queued meanwhile wait for it.
 */

export type RequestContext = {
  role: ApiRole
  claims: Record<string, unknown>
  method: string
  path: string
  headers: Record<string, string>
  readOnly: boolean
}

/** Sees a request's results before its transaction ends: true commits, false rolls back, a throw rolls back. */
export type Settle = (results: StatementResult[]) => boolean

export type QueryResult<T> = { rows: T[]; affectedRows?: number }
/** The statements of one transaction (asAuthAdmin). */
export type Transaction = {
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<QueryResult<T>>
}

export type DatabaseOptions = {
  /** The project's migrations folder (`supabase/migrations`), applied in order on open. */
  migrationsDir: string
  /** Folder of the database files; omitted: a throwaway one, deleted on close (throwaway-data-dir.ts). */
  dataDir?: string
  /** Overrides the roles' statement_timeout in milliseconds (0 = none); tests use short ones. */
  statementTimeouts?: Partial<Record<ApiRole, number>>
  log?: (entry: Record<string, unknown>) => void
}

type Engine = WorkerClient<DatabaseRequest, DatabaseResponse, EngineInfo>
type Call = Engine['call']

/** The engine held by a client of the database port (Database.hold). */
export type EngineHold = {
  /** Runs one wire-protocol message, answered with the engine's bytes. */
  protocol: (message: Uint8Array, limitMs: number) => Promise<Uint8Array>
  exec: (sql: string) => Promise<StatementResult[]>
  /** How many callers wait for the engine. */
  waiting: () => number
  release: () => void
}

/** Raised like Postgres' own statement timeout, so the REST API maps it as any SQLSTATE. */
export class StatementTimeoutError extends Error {
  readonly code = '57014'
  constructor() {
    super('canceling statement due to statement timeout')
  }
}

function startEngine(data: EngineData, log: (entry: Record<string, unknown>) => void): Promise<Engine> {
  return startWorker<DatabaseRequest, DatabaseResponse, EngineInfo>(
    new URL('./database-worker.ts', import.meta.url),
    data,
    log,
  )
}

export async function openDatabase({
  migrationsDir,
  dataDir,
  statementTimeouts = {},
  log = () => {},
}: DatabaseOptions) {
  /** Creates and migrates a database in `folder`, then closes it cleanly. */
  const buildDatabase = async (folder: string) => {
    const engine = await startEngine({ dataDir: folder, migrationsDir }, log)
    await engine.call({ op: 'close' })
    await engine.terminate()
  }
  const temporary = dataDir === undefined
  const directory = dataDir ?? (await createThrowawayDataDir(buildDatabase, migrationsDir))
  // PGlite creates only the last folder of the path; on a fresh clone `.data/` does not exist yet.
  mkdirSync(directory, { recursive: true })
  let engine: Engine
  try {
    engine = await startEngine({ dataDir: directory, migrationsDir }, log)
  } catch (error) {
    if (temporary) rmSync(directory, { recursive: true, force: true })
    throw error
  }
  const schema = schemaCache(engine.info.columns)
  const roleTimeouts = engine.info.statementTimeouts
  // PostgREST applies the impersonated role's settings; a role without one keeps the connection
  // role's (authenticator: 8 s on Supabase), e.g. service_role.
  const timeoutFor = (role: ApiRole): number | null =>
    statementTimeouts[role] ?? roleTimeouts[role] ?? roleTimeouts.authenticator ?? null

  let queue: Promise<void> = Promise.resolve()
  /** Callers queued behind the one running (a wire-protocol client holding the engine watches it). */
  let waiting = 0

  async function restart(reason: string) {
    log({ event: 'database.restart', reason })
    await engine.terminate()
    engine = await startEngine({ dataDir: directory, migrationsDir }, log)
  }

  /**
   * Runs `work` when every earlier caller is done. With a time limit, work still running at the limit
   * fails with StatementTimeoutError at once, and the next caller waits until a new engine is up.
   */
  function exclusive<T>(work: (call: Call) => Promise<T>, limitMs: number | null): Promise<T> {
    waiting++
    return new Promise<T>((resolve, reject) => {
      queue = queue
        .then(async () => {
          waiting--
          if (!engine.alive()) await restart('the engine had stopped')
          const running = work(engine.call).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          )
          let timer: NodeJS.Timeout | undefined
          const expired = limitMs
            ? new Promise<'expired'>((done) => (timer = setTimeout(() => done('expired'), limitMs)))
            : null
          const outcome = expired ? await Promise.race([running, expired]) : await running
          clearTimeout(timer)
          if (outcome === 'expired') {
            reject(new StatementTimeoutError())
            await restart(`a statement ran past its ${limitMs} ms statement_timeout`)
          } else if ('error' in outcome) reject(outcome.error)
          else resolve(outcome.value)
        })
        .catch((error: unknown) => {
          // Only a failed restart lands here; the next caller tries again.
          log({ event: 'database.error', error: error instanceof Error ? error.message : String(error) })
          reject(error)
        })
    })
  }

  const exec = (call: Call, sql: string) => call({ op: 'exec', sql }) as Promise<StatementResult[]>
  const query = <T>(call: Call, sql: string, params: unknown[] = []) =>
    call({ op: 'query', sql, params }) as Promise<QueryResult<T>>

  /**
   * Runs one API request in its own transaction under the role its JWT names, with the claims and
   * headers PostgREST would set, so RLS decides exactly as on Supabase; the superuser never runs
   * request SQL. Settings and statements go to PGlite as one simple-query string, which Postgres runs
   * as one implicit transaction (all or nothing) in one round trip, bounded by the role's statement
   * timeout. Values must already be literals (SqlBuilder.param). Returns each statement's result,
   * the settings' excluded.
   */
  async function asRequest(context: RequestContext, statements: string[], settle?: Settle) {
    const settings = [
      ...(context.readOnly ? [`set_config('transaction_read_only', 'on', true)`] : []),
      `set_config('search_path', 'public, extensions', true)`,
      `set_config('role', ${literal(context.role)}, true)`,
      `set_config('request.jwt.claims', ${literal(JSON.stringify({ ...context.claims, role: context.role }))}, true)`,
      `set_config('request.method', ${literal(context.method)}, true)`,
      `set_config('request.path', ${literal(context.path)}, true)`,
      `set_config('request.headers', ${literal(JSON.stringify(context.headers))}, true)`,
      `set_config('request.cookies', '{}', true)`,
    ]
    if (!settle) {
      const results = await exclusive(
        (call) => exec(call, `select ${settings.join(', ')};\n${statements.join(';\n')}`),
        timeoutFor(context.role) || null,
      )
      return results.slice(1)
    }
    // An explicit transaction, ended once `settle` has seen the results: committed, or rolled back
    // (Prefer: tx=rollback, or a check that throws, as PostgREST condemns a transaction).
    return exclusive(
      async (call) => {
        let results: StatementResult[]
        try {
          results = (await exec(call, `begin;\nselect ${settings.join(', ')};\n${statements.join(';\n')}`)).slice(
            -statements.length,
          )
        } catch (error) {
          await exec(call, 'rollback').catch(() => {})
          throw error
        }
        let keep: boolean
        try {
          keep = settle(results)
        } catch (error) {
          await exec(call, 'rollback')
          throw error
        }
        await exec(call, keep ? 'commit' : 'rollback')
        return results
      },
      timeoutFor(context.role) || null,
    )
  }

  /** Runs auth bookkeeping as GoTrue's own role, which owns the auth schema and nothing else. */
  function asAuthAdmin<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return exclusive(async (call) => {
      await exec(
        call,
        `begin; select set_config('role', 'supabase_auth_admin', true), set_config('search_path', 'auth', true)`,
      )
      try {
        const result = await work({ query: (sql, params) => query(call, sql, params) })
        await exec(call, 'commit')
        return result
      } catch (error) {
        await exec(call, 'rollback').catch(() => {})
        throw error
      }
    }, null)
  }

  /**
   * The engine for one client of the database port (postgres-socket.ts) until it lets go: nobody else's
   * statements run meanwhile, so a transaction it opens is its own. Each message may run `limitMs`; past
   * it the engine restarts as for an API statement (the client's session is then gone).
   */
  function hold(): Promise<EngineHold> {
    return new Promise((resolveHold, rejectHold) => {
      exclusive(
        (call) =>
          new Promise<void>((released) => {
            let broken = false
            resolveHold({
              protocol: async (message, limitMs) => {
                let timer: NodeJS.Timeout | undefined
                const expired = new Promise<'expired'>((done) => (timer = setTimeout(() => done('expired'), limitMs)))
                const outcome = await Promise.race([call({ op: 'protocol', message }) as Promise<Uint8Array>, expired])
                clearTimeout(timer)
                if (outcome !== 'expired') return outcome
                broken = true
                await restart(`a statement on the database port ran past ${limitMs} ms`)
                throw new StatementTimeoutError()
              },
              exec: (sql) => (broken ? Promise.reject(new Error('the engine restarted')) : exec(call, sql)),
              waiting: () => waiting,
              release: () => released(),
            })
          }),
        null,
      ).catch(rejectHold)
    })
  }

  /** Superuser access for the server's setup, scripts and tests (no role, no time limit). */
  const db = {
    query: <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      exclusive((call) => query<T>(call, sql, params), null),
    exec: (sql: string) => exclusive((call) => exec(call, sql), null),
  }

  async function close() {
    await exclusive(async (call) => {
      await call({ op: 'close' })
    }, null).catch(() => {})
    await engine.terminate()
    if (temporary) rmSync(directory, { recursive: true, force: true })
  }

  return { db, schema, asRequest, asAuthAdmin, hold, statementTimeoutFor: timeoutFor, close }
}

export type Database = Awaited<ReturnType<typeof openDatabase>>

function schemaCache(columns: EngineInfo['columns']): SchemaCache {
  const cache: SchemaCache = new Map()
  for (const row of columns) {
    if (!cache.has(row.table_name)) cache.set(row.table_name, new Map())
    cache.get(row.table_name)!.set(row.column_name, { name: row.column_name, type: row.type })
  }
  return cache
}
