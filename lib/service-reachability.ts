import { backends } from './site-backends.ts'

/*
 * Whether the services the server reads at run time answer, and accept the keys it holds, checked once
 * when it starts (instrumentation.ts), so that an operator reads at once which variable is wrong instead
 * of finding it in the first visitor's error: a service that cannot be reached (refused, unknown host,
 * untrusted certificate, no answer within the deadline), one that refuses the key or token (401, 403),
 * and a project or dataset it does not have (404). The server starts anyway: a hosted service may come
 * back, and pages rendered before are served meanwhile.
 */

/** How long the check waits for each service. */
const CHECK_DEADLINE_MS = 3_000

export type ServiceCheck = {
  what: string
  /** An authenticated read that costs the service nothing. */
  url: string
  headers: Record<string, string>
  /** The variable that says where the service is. */
  variable: string
  /** The variable of the key or token it is read with. */
  keyVariable: string
  /** The variables that name the project or dataset (a 404). */
  projectVariables: string
}

/** The services to check, each with the variables an operator would fix. */
export function servicesToCheck(env: Record<string, string | undefined> = process.env): ServiceCheck[] {
  const { sanity, supabase } = backends
  const token = env.SANITY_API_READ_TOKEN?.trim()
  return [
    {
      what: 'the Content Lake (Sanity)',
      url: `${sanity.serverApiUrl}/v${sanity.apiVersion.replace(/^v/, '')}/data/query/${sanity.dataset}?query=${encodeURIComponent('count(*[_id == "_"])')}`,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      variable: env.SANITY_PROJECT_API_URL?.trim()
        ? 'SANITY_PROJECT_API_URL'
        : 'SANITY_PROJECT_API_URL (unset: derived from NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_API_HOST)',
      keyVariable: 'SANITY_API_READ_TOKEN',
      projectVariables: 'NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_DATASET',
    },
    // The browser talks to Supabase; the server only proves that what the build inlined answers.
    {
      what: 'Supabase',
      url: `${supabase.url}/auth/v1/health`,
      headers: { apikey: supabase.anonKey },
      variable: 'NEXT_PUBLIC_SUPABASE_URL (set at build time)',
      keyVariable: 'NEXT_PUBLIC_SUPABASE_ANON_KEY (set at build time)',
      projectVariables: 'NEXT_PUBLIC_SUPABASE_URL (set at build time)',
    },
  ]
}

/** Why `url` cannot be reached, or null when it answers at all. */
export async function unreachable(url: string, deadlineMs = CHECK_DEADLINE_MS): Promise<string | null> {
  return (await answerOf(url, {}, deadlineMs)).reason
}

/** The status `url` answers with, or why it gave none. */
async function answerOf(
  url: string,
  headers: Record<string, string>,
  deadlineMs: number,
): Promise<{ status: number; reason: null } | { status: null; reason: string }> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(deadlineMs), redirect: 'manual' })
    await response.body?.cancel()
    return { status: response.status, reason: null }
  } catch (error) {
    const { name, cause } = error as Error & { cause?: { code?: string; message?: string } }
    if (name === 'TimeoutError') return { status: null, reason: `no answer within ${deadlineMs / 1000} s` }
    return { status: null, reason: cause?.code ?? cause?.message ?? (error as Error).message }
  }
}

/** What is wrong with one service, in a line naming the variable to fix; null when nothing is. */
export async function checkService(check: ServiceCheck, deadlineMs = CHECK_DEADLINE_MS): Promise<string | null> {
  const { status, reason } = await answerOf(check.url, check.headers, deadlineMs)
  const where = `${check.what} at ${new URL(check.url).origin}`
  const meanwhile = 'The site serves what it has rendered and tries again on each request.'
  if (reason !== null) return `${where} does not answer (${reason}): check ${check.variable}. ${meanwhile}`
  if (status === 401 || status === 403)
    return `${where} refuses the key it is read with (HTTP ${status}): check ${check.keyVariable}. ${meanwhile}`
  if (status === 404) return `${where} has no such project or dataset (HTTP 404): check ${check.projectVariables}.`
  return null
}

/** One line per service that is not as configured. */
export async function unreachableServices(checks = servicesToCheck()): Promise<string[]> {
  const lines = await Promise.all(checks.map((check) => checkService(check)))
  return lines.filter((line) => line !== null)
}
