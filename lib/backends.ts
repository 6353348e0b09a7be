import { z } from 'zod'

/*
 * The one door between the site and its two services: which Sanity project and which Supabase project,
 * where, with which keys, read from the environment and nothing else. A hosted deployment sets these
 * variables; offline, the commands that start the local services (`npm start`, `npm run dev`, the
 * build, the test command) set the very same ones to their addresses and keys. The site never knows
 * which it talks to. Everything else (lib/sanity/env.ts, the policy's sources, the browser client, the
 * scripts) asks here.
 *
 * Safe in a browser bundle: zod only. Read by next.config.ts through Node's type stripping as well: no
 * path aliases, and nothing read at import: `next start` loads next.config.ts with none of the public
 * variables set (the build inlined them), so this build's own values are read in site-backends.ts. The production server (server/) never imports it: its container image holds neither
 * this nor zod. A missing or invalid variable fails here, when the build reads it, with what to set.
 */

/** The variables read here. Public ones are inlined into the browser bundle at build time. */
export type BackendsEnv = {
  NEXT_PUBLIC_SANITY_PROJECT_ID?: string
  NEXT_PUBLIC_SANITY_DATASET?: string
  NEXT_PUBLIC_SANITY_API_VERSION?: string
  NEXT_PUBLIC_SANITY_API_HOST?: string
  NEXT_PUBLIC_SANITY_CDN_URL?: string
  SANITY_PROJECT_API_URL?: string
  NEXT_PUBLIC_SUPABASE_URL?: string
  NEXT_PUBLIC_SUPABASE_ANON_KEY?: string
}

export type SanityBackend = {
  projectId: string
  dataset: string
  apiVersion: string
  /** Sanity's API host (`apiHost`), which the Studio reaches from the browser: the project's own requests go to `<projectId>.<host>`. */
  apiHost: string
  /** Where the site's server reaches this project's API, used as it is (no project subdomain added). */
  serverApiUrl: string
  /** Where image and file bytes are served from (`https://cdn.sanity.io`). */
  cdnUrl: string
  /** API origins a browser talks to (the Studio, draft-mode live updates). */
  apiOrigins: string[]
  /** Where image and file bytes come from. */
  assetOrigins: string[]
}

export type SupabaseBackend = { url: string; anonKey: string }

export type Backends = { sanity: SanityBackend; supabase: SupabaseBackend }

export class BackendsConfigError extends Error {}

// This module runs in the browser under the site's policy, which forbids eval: zod must not probe for it
// (its probe, `new Function("")`, is itself reported as a violation) nor compile parsers with it.
z.config({ jitless: true })

const blank = (value: string | undefined) => value === undefined || value.trim() === ''
const origin = (url: string) => new URL(url).origin
const httpUrl = (example: string) =>
  z
    .url({ protocol: /^https?$/, error: `must be an http(s) URL, e.g. ${example}` })
    .transform((text) => text.replace(/\/+$/, ''))

const OFFLINE =
  'or leave the Sanity and Supabase variables empty and run the site with `npm start` or `npm run dev`, which start the local services and set them'

const schema = z.object({
  NEXT_PUBLIC_SANITY_PROJECT_ID: z
    .string({ error: `is not set: set it to your Sanity project's id (sanity.io/manage), ${OFFLINE}` })
    .regex(/^[a-z0-9-]+$/, 'must be a Sanity project id (lower-case letters, digits and -)'),
  NEXT_PUBLIC_SANITY_DATASET: z
    .string()
    .regex(/^[a-z0-9~][\w~-]{0,63}$/, 'must be a dataset name (lower-case letters, digits, _ and -)')
    .default('production'),
  NEXT_PUBLIC_SANITY_API_VERSION: z
    .string()
    .regex(/^(\d{4}-\d{2}-\d{2}|1|X)$/, 'must be an API version date such as 2025-10-01')
    .default('2025-10-01'),
  NEXT_PUBLIC_SANITY_API_HOST: httpUrl('https://api.sanity.io').default('https://api.sanity.io'),
  NEXT_PUBLIC_SANITY_CDN_URL: httpUrl('https://cdn.sanity.io').default('https://cdn.sanity.io'),
  SANITY_PROJECT_API_URL: httpUrl('https://<projectId>.api.sanity.io').optional(),
  NEXT_PUBLIC_SUPABASE_URL: z
    .url({
      protocol: /^https?$/,
      error: (issue) =>
        issue.input === undefined
          ? `is not set: set it to your Supabase project's API URL, e.g. https://xyzcompany.supabase.co, ${OFFLINE}`
          : 'must be an http(s) URL, e.g. https://xyzcompany.supabase.co',
    })
    .transform((text) => text.replace(/\/+$/, '')),
  NEXT_PUBLIC_SUPABASE_ANON_KEY: z.string({
    error: `is not set: set it to your Supabase project's anon (publishable) key, ${OFFLINE}`,
  }),
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
  const projectId = values.NEXT_PUBLIC_SANITY_PROJECT_ID
  const apiHost = new URL(values.NEXT_PUBLIC_SANITY_API_HOST)
  // As Sanity's client addresses a project: `https://<projectId>.api.sanity.io`, and its CDN beside it.
  const projectApi = `${apiHost.protocol}//${projectId}.${apiHost.host}`
  const projectApiCdn = `${apiHost.protocol}//${projectId}.${apiHost.host.replace(/^api\./, 'apicdn.')}`
  const sanity: SanityBackend = {
    projectId,
    dataset: values.NEXT_PUBLIC_SANITY_DATASET,
    apiVersion: values.NEXT_PUBLIC_SANITY_API_VERSION,
    apiHost: apiHost.origin,
    serverApiUrl: values.SANITY_PROJECT_API_URL ?? projectApi,
    cdnUrl: values.NEXT_PUBLIC_SANITY_CDN_URL,
    apiOrigins: [...new Set([apiHost.origin, projectApi, projectApiCdn])],
    assetOrigins: [origin(values.NEXT_PUBLIC_SANITY_CDN_URL)],
  }
  const supabase: SupabaseBackend = {
    url: values.NEXT_PUBLIC_SUPABASE_URL,
    anonKey: values.NEXT_PUBLIC_SUPABASE_ANON_KEY,
  }
  return { sanity, supabase }
}
