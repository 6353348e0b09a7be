import { join } from 'node:path'

/*
 * The registry of the twins, as the scripts that start them need it (scripts/lib/start-twins.ts, through
 * the one supervisor): for each, its server script, the command-line options a configuration maps to,
 * how to recognise it on its port, and the variable that moves it elsewhere. Nothing here starts a
 * process: this package holds the stand-ins; the site's scripts own the processes that serve it (its
 * benchmarks, bench/, start their own).
 */

type TwinOptions = {
  /** Port on 127.0.0.1 (0 is not allowed here: the caller must know it before the twin answers). */
  port: number
  /** Append the twin's output to this file (default: the caller's stdout/stderr, or nothing with quiet). */
  logFile?: string
  /** Extra environment of the twin's process. */
  env?: Record<string, string>
}

export type ContentLakeOptions = TwinOptions & {
  /** The project's seed (an export: production.ndjson + images/), imported into an empty dataset. */
  seedDir: string
  /** Where documents, assets, the certificate and the token live (default: memory only). */
  dataDir?: string
  /** The site: allowed CORS origin and webhook target. */
  siteUrl?: string
  /** Call the site's /api/revalidate on every published change (default true). */
  webhook?: boolean
}

export type SupabaseOptions = TwinOptions & {
  /** The project's Supabase folder: its migrations/ build the database, its functions/ answer /functions/v1. */
  supabaseDir: string
  /** Where the database lives (default: a throwaway one). */
  dataDir?: string
  /** SQL run after the migrations at every start (the project's settings for a test run). */
  startupSql?: string[]
  /** Proxies whose X-Forwarded-For entries the sign-in throttle trusts (default 1). */
  trustedProxyHops?: number
  /** Where the functions send email when SMTP_URL is unset: the local mail viewer's SMTP URL. */
  smtpUrl?: string
  /** The database's own Postgres port, for psql (`supabase start`'s 54322); omitted: none. */
  dbPort?: number
}

/** The local mail viewer (what Inbucket is to `supabase start`): `port` is its web page and JSON API. */
export type MailViewerOptions = TwinOptions & {
  /** Its SMTP port on 127.0.0.1. */
  smtpPort: number
  /** Where the emails are kept (default: a throwaway folder). */
  dataDir?: string
}

/**
 * What a running twin says of itself (`GET /_twin`): which twin, its data folder (null in memory), its
 * pid; the Supabase twin, its database's Postgres port too (null: none).
 */
export type TwinIdentity = {
  twin: 'content-lake' | 'supabase' | 'mail-viewer'
  dataDir: string | null
  pid: number
  dbPort?: number | null
}

/** How one twin is started and recognised. */
export type TwinKind<C extends TwinOptions> = {
  name: TwinIdentity['twin']
  what: string
  /** The twin's server, run by Node. */
  script: string
  /** The variable that moves it elsewhere, named when its port is taken. */
  variable: string
  args: (options: C) => string[]
  /** What its process needs in its environment, whoever starts it. */
  env?: Record<string, string>
}

export const CONTENT_LAKE: TwinKind<ContentLakeOptions> = {
  name: 'content-lake',
  what: 'the local Content Lake',
  script: join(import.meta.dirname, 'content-lake', 'content-lake-server.ts'),
  variable: 'CONTENT_LAKE_PORT',
  // sharp's memory goes back to the system after a large transform (content-lake/README.md, Images): glibc
  // is set before the process starts, so here rather than in the server.
  env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
  args: (lake) => [
    ...['--port', String(lake.port), '--seed-dir', lake.seedDir],
    ...(lake.dataDir ? ['--data-dir', lake.dataDir] : ['--memory']),
    ...(lake.siteUrl ? ['--site-url', lake.siteUrl] : []),
    ...(lake.webhook === false ? ['--no-webhook'] : []),
  ],
}

export const SUPABASE: TwinKind<SupabaseOptions> = {
  name: 'supabase',
  what: 'the local Supabase API',
  script: join(import.meta.dirname, 'supabase', 'supabase-server.ts'),
  variable: 'NEXT_PUBLIC_SUPABASE_URL',
  args: (supabase) => [
    ...['--port', String(supabase.port), '--supabase-dir', supabase.supabaseDir],
    ...(supabase.dataDir ? ['--data-dir', supabase.dataDir] : ['--memory']),
    ...(supabase.startupSql ?? []).flatMap((statement) => ['--sql', statement]),
    ...(supabase.trustedProxyHops !== undefined ? ['--trusted-proxy-hops', String(supabase.trustedProxyHops)] : []),
    ...(supabase.smtpUrl ? ['--smtp-url', supabase.smtpUrl] : []),
    ...['--db-port', supabase.dbPort === undefined ? 'off' : String(supabase.dbPort)],
  ],
}

/** Supabase's usual local ports for it (Inbucket's web page and SMTP with `supabase start`). */
export const MAIL_VIEWER_PORTS = { port: 54324, smtpPort: 54325 }

export const MAIL_VIEWER: TwinKind<MailViewerOptions> = {
  name: 'mail-viewer',
  what: 'the local mail viewer',
  script: join(import.meta.dirname, 'supabase', 'mail-viewer-server.ts'),
  variable: 'MAIL_VIEWER_PORT',
  args: (viewer) => [
    ...['--port', String(viewer.port), '--smtp-port', String(viewer.smtpPort)],
    ...(viewer.dataDir ? ['--data-dir', viewer.dataDir] : ['--memory']),
  ],
}

/** The identity of the twin answering on `port` of 127.0.0.1, or null when none of ours answers there. */
export async function twinOnPort(port: number): Promise<TwinIdentity | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/_twin`, { signal: AbortSignal.timeout(2000) })
    if (!response.ok) return null
    const identity = (await response.json()) as Partial<TwinIdentity>
    return identity.twin === 'content-lake' || identity.twin === 'supabase' || identity.twin === 'mail-viewer'
      ? (identity as TwinIdentity)
      : null
  } catch {
    return null
  }
}
