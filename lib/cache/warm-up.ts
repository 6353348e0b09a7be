import 'server-only'
import { localizedPath } from '@/lib/i18n/localized-path'
import { locales } from '@/lib/i18n/routing'
import { FIXED_PAGES, publicPages } from '@/lib/seo/public-pages'
import { siteUrl } from '@/lib/seo/site-url'

/*
 * After a publish, each public page is asked for once, here, so that its new version is rendered
 * before a visitor comes. The webhook marks the pages stale rather than expired (stale-while-
 * revalidate: app/api/revalidate), so that a page whose new render fails (the Content Lake down or past
 * its deadline) keeps its last good version; the price is that the first request after a publish gets
 * the old page while the new one renders: that first request is this one. Why: docs/decisions.md,
 * « A publish when the Content Lake fails ».
 */

/** At most this many pages are asked for at once: a publish must not take the server from visitors. */
const CONCURRENCY = 2
/** The longest one page may take (its render waits at most for the Content Lake's deadline). */
const PAGE_DEADLINE_MS = 10_000
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The origin to warm: the one the webhook reached, when it is this site's public host or a loopback
 * address (never a Host header's arbitrary name), else none.
 */
export function warmUpOrigin(requestUrl: string): string | null {
  const url = new URL(requestUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  return LOOPBACK.has(url.hostname) || url.host === new URL(siteUrl).host ? url.origin : null
}

/** The warm-up under way, and whether a publish came in meanwhile (one more round, not one per publish). */
let running: Promise<{ warmed: number; failed: string[] }> | undefined
let again = false

/**
 * Asks `origin` for every public page in both languages, CONCURRENCY at a time; resolves when all have
 * answered. Publishes that come in while a warm-up runs share one more round after it: a burst of
 * webhooks costs the server two rounds at most.
 */
export function warmUp(origin: string): Promise<{ warmed: number; failed: string[] }> {
  if (running) {
    again = true
    return running
  }
  running = warmAll(origin).finally(() => {
    running = undefined
    if (again) {
      again = false
      void warmUp(origin)
    }
  })
  return running
}

async function warmAll(origin: string): Promise<{ warmed: number; failed: string[] }> {
  const pages = await publicPages().catch(() => FIXED_PAGES)
  const queue = pages.flatMap((href) => locales.map((locale) => localizedPath(href, locale)))
  const failed: string[] = []
  let warmed = 0
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      try {
        const response = await fetch(`${origin}${path}`, {
          cache: 'no-store',
          redirect: 'manual',
          signal: AbortSignal.timeout(PAGE_DEADLINE_MS),
        })
        await response.arrayBuffer()
        if (response.ok) warmed++
        else failed.push(`${path} (${response.status})`)
      } catch (error) {
        failed.push(`${path} (${(error as Error).name})`)
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return { warmed, failed }
}
