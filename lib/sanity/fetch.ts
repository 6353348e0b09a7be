import 'server-only'
import type { ClientPerspective } from '@sanity/client'
import { stegaEncodeSourceMap, type ContentSourceMap } from '@sanity/client/stega'
import { cookies } from 'next/headers'
import { resolvePerspectiveFromCookies } from 'next-sanity/live'
import { cache } from 'react'
import { keptAnswer } from '@/lib/cache/kept-answers.mjs'
import { markLastGoodAnswer } from '@/lib/cache/last-good-answers.mjs'
import { hasDraftAccess } from '@/lib/draft-mode/draft-access'
import { withFrenchTypography } from '@/lib/i18n/french-typography'
import type { Locale } from '@/lib/i18n/routing'
import { CONTENT_DEADLINE_MS, createSanityClient } from './client'
import { explainContentLakeFailure } from './content-lake-failure'
import { LastGoodContent } from './last-good-content'
import { unreachable } from '@/lib/service-reachability'
import { sanityDataset, sanityServerApiUrl, sanityStudioUrl } from './env'
import { previewToken } from './preview-token'
import { queryTags } from './query-tags'
// SanityQueries is the global query → result map that TypeGen writes into sanity.types.ts (a type-only
// import: the build never reads that file, so it need not wait for TypeGen).
import type {} from './sanity.types'

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
): Promise<QueryResult<Q>> {
  if (!(await hasDraftAccess())) return sanityFetchPublished(query, params)
  const perspective = await resolvePerspectiveFromCookies({ cookies: await cookies() })
  const key = answerKey(JSON.stringify(perspective), query, params)
  // The read and the probe run side by side: a healthy Content Lake costs no extra wait. The read's
  // answer is used whenever it comes; once the probe finds drafts unreadable the read is dropped, so a
  // hung Content Lake costs one deadline per page, however many reads follow one another.
  const reading = new AbortController()
  const read = fetchDraft<Q>(query, params, perspective, reading.signal).then(
    (answer) => answer,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  )
  const probe = draftsUnreadable()
  const probed = async (): Promise<DraftAnswer<Q> | Error | DraftsProblem> => (await probe) ?? read
  const first = await Promise.race([read, probed()])
  let draft: DraftAnswer<Q>
  if (!(first instanceof Error) && !('reason' in first)) {
    draft = first
    if (draft.result != null) draftAnswers.remember(key, draft)
  } else {
    const problem = first instanceof Error ? await probe : first
    if (problem === null) throw first
    reading.abort()
    // Drafts that cannot be read leave the editor the page as this server last read it (these drafts,
    // else the published content: lastPublishedAnswer, as draft mode bypasses Next's data cache) and a
    // banner that says so (components/preview), not an error page.
    const kept = draftAnswers.recall(key) as DraftAnswer<Q> | undefined
    const published = kept ? undefined : await lastPublishedAnswer<Q>(query, params)
    if (kept) draft = kept
    else if (published !== undefined) draft = { result: published }
    // Unreachable, the published read would only wait out the deadline a second time.
    else if (problem.unreachable) throw new Error(problem.reason)
    else draft = { result: await fetchContent<Q>(query, params) }
  }
  const typeset = typography(draft.result, params)
  return draft.resultSourceMap
    ? stegaEncodeSourceMap(typeset, draft.resultSourceMap, { enabled: true, studioUrl: sanityStudioUrl })
    : typeset
})

type DraftAnswer<Q extends string> = { result: QueryResult<Q>; resultSourceMap?: ContentSourceMap }

/** Why drafts cannot be read, and whether for want of an answer (rather than a refusal). */
type DraftsProblem = { reason: string; unreachable: boolean }

/** The published perspective's key among the answers kept. */
const PUBLISHED = 'published'
const answerKey = (perspective: string, query: string, params: QueryParams) =>
  `${perspective}\u0000${query}\u0000${JSON.stringify(params)}`
/** What a read falls back on, the Content Lake down (last-good-content.ts): the public site's reads and
 *  an editor's apart. */
const publishedAnswers = new LastGoodContent(100)
const draftAnswers = new LastGoodContent(100)

/** Refusals already logged (a wrong or missing preview token would otherwise be logged on every page). */
const refusalsLogged = new Set<string>()

/**
 * Why this request cannot read drafts (the Content Lake unreachable, or refusing the preview token), or
 * null when it can: one small read with the preview token, once per request. The page's draft reads
 * and its banner both follow this answer, so the banner never says drafts are shown when they may not be.
 */
export const draftsUnreadable = cache(async function draftsUnreadable(): Promise<DraftsProblem | null> {
  try {
    await fetchDraft('count(*[_id == "_"])', {}, 'drafts')
    return null
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const unreachable = (error as { unreachable?: unknown }).unreachable === true
    // An outage is logged once by explainConnectionError; a refusal (which only a change of
    // configuration mends) once per reason here.
    if (!unreachable && !refusalsLogged.has(reason) && refusalsLogged.size < 20) {
      refusalsLogged.add(reason)
      console.error(`[draft mode] drafts cannot be read: ${reason}. Editors previewing see the last version loaded.`)
    }
    return { reason, unreachable }
  }
})

/** Published content, whatever the request: for code that runs with no request (generateStaticParams). */
export async function sanityFetchPublished<const Q extends string>(
  query: Q,
  params: QueryParams = {},
): Promise<QueryResult<Q>> {
  return typography(await fetchContent<Q>(query, params), params)
}

function typography<T>(value: T, params: QueryParams): T {
  return params.locale === 'fr' ? withFrenchTypography(value) : value
}

async function fetchContent<const Q extends string>(query: Q, params: QueryParams): Promise<QueryResult<Q>> {
  client ??= createSanityClient()
  const key = answerKey(PUBLISHED, query, params)
  try {
    const result = await client.fetch<QueryResult<Q>>(query, params, {
      next: { revalidate: false, tags: queryTags(query) },
      signal: AbortSignal.timeout(CONTENT_DEADLINE_MS),
    })
    contentLakeAnswered()
    if (result != null) publishedAnswers.remember(key, result)
    return result
  } catch (error) {
    const explained = explainConnectionError(error)
    // Next asks the Content Lake itself, rather than its cache, when the page it renders is to be kept
    // and the cache's answer is stale (a publish): an address no page had (a typo) after a publish during
    // an outage. The last answer read or kept is good enough for a page that is not kept
    // (last-good-answers.mjs).
    const kept = explained.unreachable ? await lastPublishedAnswer<Q>(query, params) : undefined
    if (kept === undefined) throw explained
    markLastGoodAnswer()
    return kept
  }
}

/**
 * The last published answer this server has for a query: read by this process (memory), else kept by
 * Next's data cache on disk (the build's reads and those since: a process started during an outage).
 */
async function lastPublishedAnswer<const Q extends string>(query: Q, params: QueryParams) {
  const remembered = publishedAnswers.recall(answerKey(PUBLISHED, query, params))
  return (remembered ?? (await keptAnswer(sanityDataset, query, params))) as QueryResult<Q> | undefined
}

async function fetchDraft<const Q extends string>(
  query: Q,
  params: QueryParams,
  perspective: ClientPerspective,
  signal?: AbortSignal,
): Promise<DraftAnswer<Q>> {
  client ??= createSanityClient()
  const token = previewToken()
  if (!token) throw new Error('Draft mode needs a token that reads drafts: set SANITY_API_READ_TOKEN (a Viewer token).')
  try {
    return await client.fetch<QueryResult<Q>>(query, params, {
      filterResponse: false,
      perspective,
      resultSourceMap: 'withKeyArraySelector',
      stega: false,
      token,
      cache: 'no-store',
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(CONTENT_DEADLINE_MS)])
        : AbortSignal.timeout(CONTENT_DEADLINE_MS),
    })
  } catch (error) {
    throw explainConnectionError(error)
  }
}

/** Whether the last read failed for want of an answer: the outage is logged once, and its end once. */
let unreachableSince: number | undefined
let probing = false

/**
 * A read succeeded. During an outage that says nothing by itself (Next's data cache answers most reads),
 * so the Content Lake is asked directly, once at a time, before its return is logged.
 */
function contentLakeAnswered() {
  if (unreachableSince === undefined || probing) return
  probing = true
  void unreachable(`${sanityServerApiUrl}/v1/ping`).then((reason) => {
    probing = false
    if (reason !== null || unreachableSince === undefined) return
    const seconds = Math.round((Date.now() - unreachableSince) / 1000)
    unreachableSince = undefined
    console.error(`[content] the Content Lake at ${sanityServerApiUrl} answers again (after ${seconds} s without)`)
  })
}

/**
 * A failure to read the Content Lake, as an error that says why in words only (never the client's, which
 * holds the read token: content-lake-failure.ts). A failure to reach it (refused, unknown host, untrusted
 * certificate, no answer within the deadline, a 5xx) is also said once per outage, naming the address
 * and the variable it comes from; pages served before keep their last good version meanwhile.
 */
function explainConnectionError(error: unknown): Error & { unreachable: boolean } {
  const explained = explainContentLakeFailure(error, sanityServerApiUrl, CONTENT_DEADLINE_MS)
  if (explained.unreachable && unreachableSince === undefined) {
    unreachableSince = Date.now()
    console.error(
      `[content] the Content Lake at ${sanityServerApiUrl} (SANITY_PROJECT_API_URL, or derived from ` +
        `NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_API_HOST) ${explained.unreachable}: pages keep ` +
        'their last good version until it answers. Offline, `npm start` and `npm run dev` start the local one and set its address.',
    )
  }
  return Object.assign(explained.error, { unreachable: explained.unreachable !== undefined })
}
