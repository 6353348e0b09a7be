import { backends } from './site-backends.ts'

/*
 * Whether the services the server reads at run time answer, checked once when it starts
 * (instrumentation.ts), so that an operator reads at once which variable points nowhere instead of
 * finding it in the first visitor's error. Any HTTP answer counts: only a service that cannot be reached
 * (refused, unknown host, no answer within the deadline) is reported. The server starts anyway: a hosted
 * service may come back, and pages rendered before are served meanwhile.
 */

/** How long the check waits for each service. */
const CHECK_DEADLINE_MS = 3_000

export type ServiceCheck = { what: string; url: string; variable: string }

/** The services to check, each with the variable that says where it is (as an operator would fix it). */
export function servicesToCheck(env: Record<string, string | undefined> = process.env): ServiceCheck[] {
  const { sanity, supabase } = backends
  return [
    {
      what: 'the Content Lake (Sanity)',
      url: `${sanity.serverApiUrl}/v1/ping`,
      variable: env.SANITY_PROJECT_API_URL?.trim()
        ? 'SANITY_PROJECT_API_URL'
        : 'SANITY_PROJECT_API_URL (unset: derived from NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_API_HOST)',
    },
    // The browser talks to Supabase; the server only proves the address the build inlined answers.
    {
      what: 'Supabase',
      url: `${supabase.url}/auth/v1/health`,
      variable: 'NEXT_PUBLIC_SUPABASE_URL (set at build time)',
    },
  ]
}

/** Why `url` cannot be reached, or null when it answers at all. */
export async function unreachable(url: string, deadlineMs = CHECK_DEADLINE_MS): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(deadlineMs), redirect: 'manual' })
    await response.body?.cancel()
    return null
  } catch (error) {
    const { name, cause } = error as Error & { cause?: { code?: string; message?: string } }
    if (name === 'TimeoutError') return `no answer within ${deadlineMs / 1000} s`
    return cause?.code ?? cause?.message ?? (error as Error).message
  }
}

/** One line per service that does not answer, naming its variable. */
export async function unreachableServices(checks = servicesToCheck()): Promise<string[]> {
  const results = await Promise.all(checks.map(async (check) => ({ check, reason: await unreachable(check.url) })))
  return results
    .filter(({ reason }) => reason !== null)
    .map(
      ({ check, reason }) =>
        `${check.what} at ${new URL(check.url).origin} does not answer (${reason}): check ${check.variable}. ` +
        'The site serves what it has rendered and tries again on each request.',
    )
}
