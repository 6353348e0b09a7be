import 'server-only'
import { stegaEncodeSourceMap, type ContentSourceMap } from '@sanity/client/stega'
import { cookies } from 'next/headers'
import { resolvePerspectiveFromCookies } from 'next-sanity/live'
import { cache } from 'react'
import { hasDraftAccess } from '@/lib/draft-mode/draft-access'
import { withFrenchTypography } from '@/lib/i18n/french-typography'
import type { Locale } from '@/lib/i18n/routing'
import { createSanityClient } from './client'
import { sanityServerApiUrl, sanityStudioUrl } from './env'
import { previewToken } from './preview-token'
// SanityQueries is the global query → result map that TypeGen writes into sanity.types.ts.
import './sanity.types'

type QueryResult<Q extends string> = Q extends keyof SanityQueries ? SanityQueries[Q] : never
type QueryParams = { locale?: Locale; slug?: string }

let client: ReturnType<typeof createSanityClient> | undefined

/**
 * The one way pages read content: the Content Lake, cached by Next and
 * revalidated by tag (`sanity` for everything, plus the caller's tags). French results get French
 * typography (no-break spaces before high punctuation).
 *
 * In draft mode (an editor previewing, with a valid draft-access cookie: lib/draft-mode) the same
 * call reads drafts, uncached, and stega-encodes its strings with their Content Source Map, so the
 * Presentation tool can tell which field each text on the page comes from. Typography is applied before the encoding, which
 * only appends invisible characters: the two never touch each other's work. Outside draft mode none
 * of this runs and the result holds no invisible characters.
 */
export const sanityFetch = cache(async function sanityFetch<const Q extends string>(
  query: Q,
  params: QueryParams = {},
  tags: string[] = [],
): Promise<QueryResult<Q>> {
  if (!(await hasDraftAccess())) return sanityFetchPublished(query, params, tags)
  const { result, resultSourceMap } = await fetchDraft<Q>(query, params)
  const typeset = typography(result, params)
  return resultSourceMap
    ? stegaEncodeSourceMap(typeset, resultSourceMap, { enabled: true, studioUrl: sanityStudioUrl })
    : typeset
})

/** Published content, whatever the request: for code that runs with no request (generateStaticParams). */
export async function sanityFetchPublished<const Q extends string>(
  query: Q,
  params: QueryParams = {},
  tags: string[] = [],
): Promise<QueryResult<Q>> {
  return typography(await fetchContent<Q>(query, params, tags), params)
}

function typography<T>(value: T, params: QueryParams): T {
  return params.locale === 'fr' ? withFrenchTypography(value) : value
}

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
    throw explainConnectionError(error)
  }
}

async function fetchDraft<const Q extends string>(
  query: Q,
  params: QueryParams,
): Promise<{ result: QueryResult<Q>; resultSourceMap?: ContentSourceMap }> {
  client ??= createSanityClient()
  const token = previewToken()
  if (!token) throw new Error('Draft mode needs a token that reads drafts: set SANITY_API_READ_TOKEN (a Viewer token).')
  try {
    return await client.fetch<QueryResult<Q>>(query, params, {
      filterResponse: false,
      perspective: await resolvePerspectiveFromCookies({ cookies: await cookies() }),
      resultSourceMap: 'withKeyArraySelector',
      stega: false,
      token,
      cache: 'no-store',
    })
  } catch (error) {
    throw explainConnectionError(error)
  }
}

function explainConnectionError(error: unknown): unknown {
  if (!isConnectionError(error)) return error
  return new Error(
    `Nothing answers at ${sanityServerApiUrl}, the Content Lake this site was configured with. Offline, ` +
      '`npm start` and `npm run dev` start the local one and set its address; hosted, check the project id.',
    { cause: error },
  )
}

function isConnectionError(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === 'ECONNREFUSED') return true
  }
  return false
}
