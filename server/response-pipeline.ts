import type { IncomingMessage, ServerResponse } from 'node:http'
import { cdnCacheStage } from './cdn-headers.ts'
import { CompressionMemo, compressionStage, negotiateEncoding } from './compression-stage.ts'
import { interceptResponse, type Flow } from './intercept-response.ts'
import { policyStage } from './policy-stage.ts'
import { SharedCache } from './shared-cache.ts'
import { headerText, type ArrivedRequest, type ResponseHead, type Stage } from './stage.ts'

/*
 * What the production server does to each response Next.js writes, in order. Next.js answers as it
 * would alone; the response is caught once (intercept-response.ts), and these stages run over it, each
 * knowing nothing of the others:
 *
 *   request ──► shared cache: a fresh shareable answer is sent again at once, Next.js never sees it
 *                             (an identical GET being rendered is waited for, and its answer sent)
 *           ──► Next.js ──► 1. policy hashes   the Content-Security-Policy names this HTML's inline scripts
 *                           2. compression     brotli or gzip, once per body version; weak ETag, Vary
 *                           3. CDN headers     Cache-Control: how long a CDN in front may keep it
 *                                              (never, when Next could read its draft-mode cookie)
 *                           4. shared cache    a shareable answer is kept, as it goes out, for 5 s
 *                       ──► client
 *
 * The policy is read from the HTML before it is compressed; the CDN's Cache-Control and the final
 * bytes are what the cache keeps and sends again. The cache is emptied by a verified publish only: a
 * POST to one of PUBLISH_ROUTES that Next.js answers 200, or another replica's (REMOTE_PUBLISH_EVENT).
 */

export type NextHandler = (request: IncomingMessage, response: ServerResponse) => void

export type ResponsePipeline = {
  (request: IncomingMessage, response: ServerResponse, next: NextHandler): void
  readonly cache: SharedCache
  readonly compressionMemo: CompressionMemo
}

const EVENT_STREAM = /^\s*text\/event-stream\b/i

/**
 * The routes whose 200 answer to a POST means that public content changed: the Sanity webhook
 * (app/api/revalidate/route.ts answers 200 only for a signed request, after revalidateTag). It is the
 * app's only route that revalidates anything (a test holds the two lists together); draft mode's
 * enable and disable routes change what one editor sees, not what the cache holds.
 */
export const PUBLISH_ROUTES: readonly string[] = ['/api/revalidate']
/**
 * The process event by which Next's cache handler says that another replica published (REDIS_URL set:
 * lib/cache/shared-cache-handler.mjs, its PUBLISHED_EVENT; a test holds the two names together). The
 * tags are already expired here when it fires: the memory cache empties as after a publish of its own.
 */
export const REMOTE_PUBLISH_EVENT = 'plume:published'
const isPublish = (request: ArrivedRequest) =>
  request.method === 'POST' && PUBLISH_ROUTES.includes(request.url.split('?', 1)[0])

export function createResponsePipeline({
  cache = new SharedCache({ negotiate: negotiateEncoding }),
  compressionMemo = new CompressionMemo(),
  remotePublishes,
}: {
  cache?: SharedCache
  compressionMemo?: CompressionMemo
  /** Where REMOTE_PUBLISH_EVENT is emitted (the server passes `process`): each empties the cache. */
  remotePublishes?: Pick<NodeJS.EventEmitter, 'on'>
} = {}): ResponsePipeline {
  remotePublishes?.on(REMOTE_PUBLISH_EVENT, () => cache.clear())
  const stages: Stage[] = [policyStage(), compressionStage(compressionMemo), cdnCacheStage, cache.stage]

  /** How a body flows: decided once, for every stage. */
  function flowOf(request: ArrivedRequest, head: ResponseHead): Flow {
    // A live event stream (draft mode's updates) never ends: it goes out as Next.js writes it, as is.
    if (EVENT_STREAM.test(headerText(head.headers, 'content-type'))) return 'untouched'
    // No body will follow, whatever Next.js writes: the stages change the headers only.
    if (request.method === 'HEAD' || head.status === 204 || head.status === 304) return 'stream'
    // Otherwise held only when a stage needs the whole body (a page, a compressible text, a shareable
    // answer); anything else (images, fonts, downloads) streams through, headers transformed.
    return stages.some((stage) => stage.wantsBody(head, request)) ? 'hold' : 'stream'
  }

  function pipeline(request: IncomingMessage, response: ServerResponse, next: NextHandler) {
    // The request as it arrived, before Next.js removes the RSC headers from it while it renders.
    const arrived: ArrivedRequest = {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: { ...request.headers },
    }
    cache.handle(arrived, response, () => {
      const publish = isPublish(arrived)
      interceptResponse(response, {
        decide: (head) => {
          // The revalidation route answers 200 once it has expired the pages' data: what the cache
          // holds may be out of date from now on. Any other answer (a refused signature) changed
          // nothing, and leaves the cache as it is, whether or not the client waited for it.
          if (publish && head.status === 200) cache.clear()
          const flow = flowOf(arrived, head)
          cache.responding(arrived, head, flow === 'hold')
          return flow
        },
        transform: (outgoing) => {
          for (const stage of stages) stage.apply(outgoing, arrived)
        },
      })
      next(request, response)
    })
  }
  return Object.assign(pipeline, { cache, compressionMemo })
}
