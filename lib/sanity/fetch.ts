import 'server-only'
import { cache } from 'react'
import { withFrenchTypography } from '@/lib/i18n/french-typography'
import type { Locale } from '@/lib/i18n/routing'
import { createSanityClient } from './client'
import { isSanityHosted, sanityServerApiHost } from './env'
// SanityQueries is the global query → result map that TypeGen writes into sanity.types.ts.
import './sanity.types'

type QueryResult<Q extends string> = Q extends keyof SanityQueries ? SanityQueries[Q] : never
type QueryParams = { locale?: Locale; slug?: string }

let client: ReturnType<typeof createSanityClient> | undefined

/**
 * The one way pages read content: the Content Lake (hosted, or the local one), cached by Next and
 * revalidated by tag (`sanity` for everything, plus the caller's tags). French results get French
 * typography (no-break spaces before high punctuation).
 */
export const sanityFetch = cache(async function sanityFetch<const Q extends string>(
  query: Q,
  params: QueryParams = {},
  tags: string[] = [],
): Promise<QueryResult<Q>> {
  const result = await fetchContent<Q>(query, params, tags)
  return params.locale === 'fr' ? withFrenchTypography(result) : result
})

async function fetchContent<const Q extends string>(
  query: Q,
  params: QueryParams,
  tags: string[],
): Promise<QueryResult<Q>> {
  client ??= createSanityClient()
  try {
    return await client.fetch<QueryResult<Q>>(query, params, {
      next: { revalidate: false, tags: ['sanity', ...tags] },
    })
  } catch (error) {
    if (isSanityHosted || !isConnectionError(error)) throw error
    throw new Error(
      `The local Content Lake is not running at ${sanityServerApiHost}. Start the site with \`npm start\` or \`npm run dev\` ` +
        '(they start it), or run `npm run sanity:local`; or set NEXT_PUBLIC_SANITY_PROJECT_ID to use a hosted project.',
      { cause: error },
    )
  }
}

function isConnectionError(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === 'ECONNREFUSED') return true
  }
  return false
}
