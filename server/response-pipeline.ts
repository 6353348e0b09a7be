import type { IncomingMessage, ServerResponse } from 'node:http'
import { cdnCacheStage } from './cdn-headers.ts'
import { CompressionMemo, compressionStage, negotiateEncoding } from './compression-stage.ts'
import { interceptResponse, type Flow } from './intercept-response.ts'
import { policyStage } from './policy-stage.ts'
import { MemoryCache } from './memory-cache.ts'
import { headerText, type ArrivedRequest, type ResponseHead, type Stage } from './stage.ts'

/*
 * What the production server does to each response Next.js writes, in order. Next.js answers as it
 * would alone; the response is caught once (intercept-response.ts), and these stages run over it, each
 * knowing nothing of the others:
 *
 *   request ──► memory cache: a fresh shareable answer is sent again at once, Next.js never sees it
 *                             (an identical GET being rendered is waited for, and its answer sent)
 *           ──► Next.js ──► 1. policy hashes   the Content-Security-Policy names this HTML's inline scripts
 *                           2. compression     brotli or gzip, once per body version; weak ETag, Vary
 *                           3. CDN headers     Cache-Control: how long a CDN in front may keep it
 *                                              (never, when Next could read its draft-mode cookie)
 *                           4. memory cache    a shareable answer is kept, as it goes out, for 5 s
 *                       ──► client
 *
 * The policy is read from the HTML before it is compressed; the CDN's Cache-Control and the final
 * bytes are what the cache keeps and sends again. The cache is emptied by a publish only
 * (PUBLISHED_EVENT: this replica's or another's).
 */

export type NextHandler = (request: IncomingMessage, response: ServerResponse) => void

export type ResponsePipeline = {
  (request: IncomingMessage, response: ServerResponse, next: NextHandler): void
  readonly cache: MemoryCache
  readonly compressionMemo: CompressionMemo
}

const EVENT_STREAM = /^\s*text\/event-stream\b/i

/**
 * The process event by which Next's cache handler says that a publish made tags stale, in this process
 * (the webhook) or on another replica (REDIS_URL): lib/cache/shared-cache-handler.mjs, its
 * PUBLISHED_EVENT (a test holds the two names together). The memory cache empties on it, and on
 * nothing else.
 */
export const PUBLISHED_EVENT = 'plume:published'

export function createResponsePipeline({
  cache = new MemoryCache({ negotiate: negotiateEncoding }),
  compressionMemo = new CompressionMemo(),
  publishes,
}: {
  cache?: MemoryCache
  compressionMemo?: CompressionMemo
  /** Where PUBLISHED_EVENT is emitted (the server passes `process`): each empties the cache. */
  publishes?: Pick<NodeJS.EventEmitter, 'on'>
} = {}): ResponsePipeline {
  publishes?.on(PUBLISHED_EVENT, () => cache.clear())
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
      interceptResponse(response, {
        decide: (head) => {
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
