import 'server-only'
import { cache } from 'react'
import { withFrenchTypography } from '@/lib/i18n/french-typography'
import type { Locale } from '@/lib/i18n/routing'
import { createSanityClient } from './client'
import { isSanityConfigured } from './env'
// SanityQueries is the global query → result map that TypeGen writes into sanity.types.ts.
import './sanity.types'
import { querySeed } from './seed-query'

type QueryResult<Q extends string> = Q extends keyof SanityQueries ? SanityQueries[Q] : never
type QueryParams = { locale?: Locale; slug?: string }

let client: ReturnType<typeof createSanityClient> | undefined

/**
 * The one way pages read content. Configured: the Content Lake, cached by Next and revalidated by
 * tag (`sanity` for everything, plus the caller's tags). Unconfigured: the same query evaluated
 * locally over the seed dataset. French results get French typography (no-break spaces before
 * high punctuation) whichever the source.
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
  if (!isSanityConfigured) return (await querySeed(query, params)) as QueryResult<Q>
  client ??= createSanityClient()
  return client.fetch<QueryResult<Q>>(query, params, {
    next: { revalidate: false, tags: ['sanity', ...tags] },
  })
}
