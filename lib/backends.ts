import { z } from 'zod'
import {
  isHostedProjectId,
  LOCAL_ANON_KEY,
  LOCAL_CONTENT_LAKE_PORT,
  LOCAL_PROJECT_ID,
  LOCAL_SERVICE_ROLE_KEY,
  LOCAL_SUPABASE_URL,
} from '@plume/local-twins/defaults'

/*
 * The one door between the site and its two services: which Sanity and which Supabase, where, with
 * which keys — hosted when configured, the local twins (@plume/local-twins) otherwise — decided once
 * from the environment. Everything else (lib/sanity/env.ts, the policy's sources, the browser client,
 * the revalidate route, the scripts) asks here; nothing else imports the twins' package.
 *
 * Safe in a browser bundle: constants and zod only; starting the twins is scripts/lib/start-twins.ts's
 * job (the scripts). Read by next.config.ts through Node's type stripping as well: no path aliases. The
 * production server (server/) never imports it: its container image holds neither this nor zod. A
 * half-configured environment fails here, when the build reads it, with what to set.
 */

/** The variables read here. Public ones are inlined into the browser bundle at build time. */
export type BackendsEnv = {
  NEXT_PUBLIC_SANITY_PROJECT_ID?: string
  NEXT_PUBLIC_SANITY_DATASET?: string
  NEXT_PUBLIC_SANITY_API_VERSION?: string
  NEXT_PUBLIC_SANITY_LOCAL_PORT?: string
  NEXT_PUBLIC_SUPABASE_URL?: string
  NEXT_PUBLIC_SUPABASE_ANON_KEY?: string
}

export type SanityBackend = {
  /** A hosted Sanity project, or the local Content Lake twin. */
  hosted: boolean
  projectId: string
  dataset: string
  apiVersion: string
  /** The local Content Lake's port (one port: plain HTTP for Node, HTTP/2 over TLS for browsers); null when hosted. */
  localPort: number | null
  /** Where the site's server reaches the API: Sanity's default host when hosted (undefined), the twin's plain-HTTP side. */
  serverApiHost: string | undefined
  /** Where a browser (the Studio) reaches the API: the twin's HTTP/2 side, which Chromium needs. */
  browserApiHost: string | undefined
  /** API origins a browser talks to (the Studio, draft-mode live updates). */
  apiOrigins: string[]
  /** Where image and file bytes come from (the CDN, or the twin's plain-HTTP side). */
  assetOrigins: string[]
}

export type SupabaseBackend = {
  /** A loopback URL: the local Supabase twin (or `supabase start`), which takes the CLI's demo keys. */
  local: boolean
  url: string
  /** The port a local twin listens on (null when hosted). */
  localPort: number | null
  anonKey: string
}

export type Backends = { sanity: SanityBackend; supabase: SupabaseBackend }

export class BackendsConfigError extends Error {}

// This module runs in the browser under the site's policy, which forbids eval: zod must not probe for it
// (its probe, `new Function("")`, is itself reported as a violation) nor compile parsers with it.
z.config({ jitless: true })

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])
const isLoopbackUrl = (url: URL) => LOOPBACK.has(url.hostname)
const blank = (value: string | undefined) => value === undefined || value.trim() === ''

const port = z
  .string()
  .regex(/^\d+$/, 'must be a port number')
  .transform(Number)
  .refine((value) => value >= 1 && value <= 65535, 'must be a port between 1 and 65535')

const supabaseUrl = z
  .url({
    protocol: /^https?$/,
    error: 'must be the API URL of a Supabase project, e.g. https://xyzcompany.supabase.co',
  })
  .transform((text) => new URL(text))

const schema = z
  .object({
    NEXT_PUBLIC_SANITY_PROJECT_ID: z.string().optional(),
    NEXT_PUBLIC_SANITY_DATASET: z
      .string()
      .regex(/^[a-z0-9~][\w~-]{0,63}$/, 'must be a dataset name (lower-case letters, digits, _ and -)')
      .optional(),
    NEXT_PUBLIC_SANITY_API_VERSION: z
      .string()
      .regex(/^(\d{4}-\d{2}-\d{2}|1|X)$/, 'must be an API version date such as 2025-10-01')
      .optional(),
    NEXT_PUBLIC_SANITY_LOCAL_PORT: port.optional(),
    NEXT_PUBLIC_SUPABASE_URL: supabaseUrl.optional(),
    NEXT_PUBLIC_SUPABASE_ANON_KEY: z.string().optional(),
  })
  .superRefine((env, context) => {
    // A hosted project needs its own public key; the twin accepts only the CLI's demo keys.
    const url = env.NEXT_PUBLIC_SUPABASE_URL
    if (url && !isLoopbackUrl(url) && !env.NEXT_PUBLIC_SUPABASE_ANON_KEY) {
      context.addIssue({
        code: 'custom',
        path: ['NEXT_PUBLIC_SUPABASE_ANON_KEY'],
        message: `is empty while NEXT_PUBLIC_SUPABASE_URL names a hosted project (${url.origin}): set it to that project's anon (publishable) key, or empty NEXT_PUBLIC_SUPABASE_URL to use the local Supabase twin`,
      })
    }
    if (!url && env.NEXT_PUBLIC_SUPABASE_ANON_KEY) {
      context.addIssue({
        code: 'custom',
        path: ['NEXT_PUBLIC_SUPABASE_URL'],
        message:
          'is empty while NEXT_PUBLIC_SUPABASE_ANON_KEY is set: set the URL of the project that key belongs to, or empty the key to use the local Supabase twin',
      })
    }
  })

/** The services an environment describes; throws BackendsConfigError naming every variable to fix. */
export function backendsFromEnv(env: BackendsEnv): Backends {
  // An empty variable is an unset one (.env.example lists them all, empty).
  const given = Object.fromEntries(
    Object.entries(env)
      .filter(([, value]) => !blank(value))
      .map(([key, value]) => [key, value!.trim()]),
  )
  const parsed = schema.safeParse(given)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')} ${issue.message}`)
    throw new BackendsConfigError(
      `The Sanity / Supabase settings are incomplete or invalid (see .env.example):\n${lines.join('\n')}`,
    )
  }
  const values = parsed.data

  // An invalid project id counts as none (the local Content Lake), as it always has: the Studio then
  // shows the local content rather than failing on a typo'd placeholder.
  const projectId = values.NEXT_PUBLIC_SANITY_PROJECT_ID ?? ''
  const hosted = isHostedProjectId(projectId)
  const localPort = hosted ? null : (values.NEXT_PUBLIC_SANITY_LOCAL_PORT ?? LOCAL_CONTENT_LAKE_PORT)
  const sanity: SanityBackend = {
    hosted,
    projectId: hosted ? projectId : LOCAL_PROJECT_ID,
    dataset: values.NEXT_PUBLIC_SANITY_DATASET ?? 'production',
    apiVersion: values.NEXT_PUBLIC_SANITY_API_VERSION ?? '2025-10-01',
    localPort,
    // Node resolves no `<project>.localhost` names: the server reaches the twin by address, no subdomain.
    serverApiHost: hosted ? undefined : `http://127.0.0.1:${localPort}`,
    browserApiHost: hosted ? undefined : `https://localhost:${localPort}`,
    // Locally the Studio uses the twin's TLS side, by name and, for Sanity's SDK, by project host name.
    apiOrigins: hosted
      ? [`https://${projectId}.api.sanity.io`, `https://${projectId}.apicdn.sanity.io`]
      : [`https://localhost:${localPort}`, `https://${LOCAL_PROJECT_ID}.localhost:${localPort}`],
    assetOrigins: hosted ? ['https://cdn.sanity.io'] : [`http://127.0.0.1:${localPort}`],
  }

  const url = values.NEXT_PUBLIC_SUPABASE_URL ?? new URL(LOCAL_SUPABASE_URL)
  const local = isLoopbackUrl(url)
  const supabase: SupabaseBackend = {
    local,
    url: url.href.replace(/\/+$/, ''),
    localPort: local ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : null,
    anonKey: values.NEXT_PUBLIC_SUPABASE_ANON_KEY ?? LOCAL_ANON_KEY,
  }
  return { sanity, supabase }
}

/** This build's services. Each variable is read by its full name so Next.js inlines it in the browser. */
export const backends: Backends = backendsFromEnv({
  NEXT_PUBLIC_SANITY_PROJECT_ID: process.env.NEXT_PUBLIC_SANITY_PROJECT_ID,
  NEXT_PUBLIC_SANITY_DATASET: process.env.NEXT_PUBLIC_SANITY_DATASET,
  NEXT_PUBLIC_SANITY_API_VERSION: process.env.NEXT_PUBLIC_SANITY_API_VERSION,
  NEXT_PUBLIC_SANITY_LOCAL_PORT: process.env.NEXT_PUBLIC_SANITY_LOCAL_PORT,
  NEXT_PUBLIC_SUPABASE_URL: process.env.NEXT_PUBLIC_SUPABASE_URL,
  NEXT_PUBLIC_SUPABASE_ANON_KEY: process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY,
})

/** The service-role key for scripts (never the browser): SUPABASE_SERVICE_ROLE_KEY, or the twin's demo key. */
export function serviceRoleKey(
  supabase: SupabaseBackend = backends.supabase,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  return env.SUPABASE_SERVICE_ROLE_KEY || (supabase.local ? LOCAL_SERVICE_ROLE_KEY : undefined)
}
