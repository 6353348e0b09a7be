import { mkdirSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { LakeAccess } from './access.ts'
import { AssetFiles } from './assets.ts'
import { DEFAULT_CONNECTION_TIMEOUTS, type ConnectionTimeouts } from '../connection-limits.ts'
import { ContentLakeError, gatewayError } from './content-lake-error.ts'
import { DatasetWriter } from './dataset-writer.ts'
import { LOCAL_DATASET, LOCAL_PROJECT_ID, LOCAL_SITE_URL, LOCAL_STUDIO_PATH } from './content-lake-settings.ts'
import { DocumentStore } from './document-store.ts'
import { ImageCdn, type ImageCdnOptions } from './image-cdn.ts'
import { listenDualProtocol } from './dual-protocol-server.ts'
import { BodyTooLargeError, sendJson, type Request, type Response } from '../http-kit.ts'
import { ListenerHub } from './listener.ts'
import { LiveEventHub, datasetSyncTag } from './live-events.ts'
import { attachPresenceSocket } from './presence-socket.ts'
import { DEFAULT_QUERY_TIMEOUT_MS, QueryPool } from './query-pool.ts'
import { corsHeaders, openExchange } from './routes/exchange.ts'
import type { Lake } from './routes/route.ts'
import { routeRequest } from './routes/router.ts'
import { loadOrCreateSecret } from './secrets.ts'
import { SignInSessions } from './sign-in.ts'
import { DEFAULT_STREAM_LIMITS, StreamGate, type StreamLimits } from './stream-gate.ts'
import { loadOrCreateCertificate } from './tls.ts'
import { DiskTransformCache, MemoryTransformCache } from './transform-cache.ts'
import { startRevalidateWebhook } from './webhook.ts'

/*
 * A local Content Lake: the subset of Sanity's HTTP API that the embedded Studio, @sanity/client /
 * next-sanity and our scripts use (twins/content-lake/README.md lists it), over one dataset kept in memory and
 * made durable by an fsynced transaction log, on one loopback port that speaks plain HTTP/1.1 and
 * HTTP/2 over TLS (dual-protocol-server.ts). The endpoints are in routes/, one module per family.
 */

export type ContentLakeOptions = {
  host?: string
  port?: number
  /** Folder for documents, assets, the TLS certificate and the editor token; omit for memory only. */
  dataDir?: string
  /** Folder of the TLS certificate (default `<dataDir>/tls`); the command line keeps it outside the data folder. */
  tlsDir?: string
  /** Seed folder (production.ndjson + images/) imported when the dataset is empty. */
  seedDir?: string
  projectId?: string
  dataset?: string
  /** Browser origins allowed by CORS (the site). */
  corsOrigins?: string[]
  /** The Studio's base path on the site (default LOCAL_STUDIO_PATH, `/studio`): where a sign-in returns. */
  studioPath?: string
  /** Where published changes are POSTed (the site's /api/revalidate); null turns the webhook off. */
  webhookUrl?: string | null
  /** The webhook's secret; otherwise generated once and kept in the data folder (never a default). */
  webhookSecret?: string
  /** Fixed editor token (tests); otherwise generated once and kept in the data folder. */
  token?: string
  log?: (entry: Record<string, unknown>) => void
  /** Query threads anyone may use (default: up to two, one per core); one more serves requests with a token only. */
  queryWorkers?: number
  /** How long one query may run before it is stopped with a 400 (default 10 s). */
  queryTimeoutMs?: number
  /** Limits on slow or silent clients (defaults: DEFAULT_CONNECTION_TIMEOUTS). */
  connectionTimeouts?: Partial<ConnectionTimeouts>
  /** Interval of the keep-alive comments on listener and live-event streams (default 15 s). */
  keepAliveMs?: number
  /** Caps on listener and live-event streams, and on what a client that does not read may hold (stream-gate.ts). */
  streamLimits?: Partial<StreamLimits>
  /** The image CDN's lanes and limits (image-cdn.ts; tests make them small). */
  imageCdn?: ImageCdnOptions
}

/** How long a query may wait for a fresh thread (after another's was stopped) before its time limit starts. */
const QUERY_THREAD_START_ALLOWANCE_MS = 8_000

export type ContentLake = {
  /** Plain HTTP base for Node clients, e.g. http://127.0.0.1:54380 */
  url: string
  /** HTTPS (HTTP/2) base for browsers, e.g. https://localhost:54380 */
  httpsUrl: string
  port: number
  token: string
  /** Reads everything, drafts included, and writes nothing: the site's server previews with it. */
  viewerToken: string
  webhookSecret: string
  projectId: string
  dataset: string
  certPath: string
  store: DocumentStore
  /** The image CDN (tests look at its line). */
  images: ImageCdn
  /** Resolves when every webhook delivery started so far has finished (tests). */
  webhooksIdle: () => Promise<void>
  close: () => Promise<void>
}

export async function startContentLake(options: ContentLakeOptions = {}): Promise<ContentLake> {
  const host = options.host ?? '127.0.0.1'
  const projectId = options.projectId ?? LOCAL_PROJECT_ID
  const dataset = options.dataset ?? LOCAL_DATASET
  const corsOrigins = new Set(
    (options.corsOrigins ?? [LOCAL_SITE_URL, LOCAL_SITE_URL.replace('localhost', '127.0.0.1')]).map((origin) =>
      origin.replace(/\/+$/, ''),
    ),
  )
  const log = options.log ?? ((entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })))
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })

  const store = new DocumentStore(options.dataDir && join(options.dataDir, dataset))
  const files = new AssetFiles(options.dataDir && join(options.dataDir, dataset, 'assets'))
  const images = new ImageCdn(
    options.dataDir
      ? new DiskTransformCache(join(options.dataDir, dataset, 'image-cache'))
      : new MemoryTransformCache(),
    options.imageCdn,
  )
  const tls = await loadOrCreateCertificate(options.tlsDir ?? (options.dataDir && join(options.dataDir, 'tls')))
  const editorToken = options.token ?? loadOrCreateSecret(options.dataDir, 'editor-token', 'sk')
  const viewerToken = loadOrCreateSecret(options.dataDir, 'viewer-token', 'sk')
  const webhookSecret = options.webhookSecret ?? loadOrCreateSecret(options.dataDir, 'webhook-secret', '')
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS
  const queries = new QueryPool(store, {
    size: options.queryWorkers,
    timeoutMs: queryTimeoutMs,
    context: { projectId, dataset },
    log,
  })
  const timeouts = { ...DEFAULT_CONNECTION_TIMEOUTS, ...options.connectionTimeouts }
  // Node's request limit runs until the response starts, so it must leave a query its whole time and
  // the start of a fresh query thread (seconds on a busy machine) before it.
  timeouts.requestMs = Math.max(timeouts.requestMs, queryTimeoutMs + QUERY_THREAD_START_ALLOWANCE_MS)

  let port = options.port ?? 0
  const publicUrl = () => `http://127.0.0.1:${port}`
  const browserUrl = () => `https://localhost:${port}`
  const syncTag = datasetSyncTag(projectId, dataset)
  const lake: Lake = {
    projectId,
    dataset,
    store,
    files,
    images,
    queries,
    writer: new DatasetWriter(store, files, queries, () => ({ projectId, dataset, publicUrl: publicUrl() })),
    access: new LakeAccess(editorToken, viewerToken),
    listeners: new ListenerHub(store, queries, queryTimeoutMs, options.keepAliveMs),
    live: new LiveEventHub(store, syncTag, options.keepAliveMs),
    streams: new StreamGate({ ...DEFAULT_STREAM_LIMITS, ...options.streamLimits }),
    syncTag,
    editorToken,
    viewerToken,
    webhookSecret,
    corsOrigins,
    studioPath: options.studioPath ?? LOCAL_STUDIO_PATH,
    browserUrl,
    signIns: new SignInSessions(),
    keyValues: new Map(),
    twin: { twin: 'content-lake', dataDir: options.dataDir ? realpathSync(options.dataDir) : null, pid: process.pid },
    requireDataset: (name) => {
      if (name !== dataset)
        throw gatewayError(404, 'Not Found', `Dataset "${name}" not found for project ID "${projectId}"`)
    },
  }

  async function handle(request: Request, response: Response) {
    const cors = corsHeaders(request, corsOrigins)
    try {
      const exchange = openExchange(request, response, cors, projectId)
      if (exchange) await routeRequest(exchange, lake)
    } catch (error) {
      if (error instanceof ContentLakeError)
        return sendJson(response, error.status, error.body, { ...cors, ...error.headers })
      if (error instanceof BodyTooLargeError) {
        return sendJson(
          response,
          413,
          { statusCode: 413, error: 'Request Entity Too Large', message: error.message },
          cors,
        )
      }
      log({
        event: 'error',
        method: request.method,
        url: request.url,
        error: error instanceof Error ? error.stack : String(error),
      })
      sendJson(
        response,
        500,
        { statusCode: 500, error: 'Internal Server Error', message: 'The local Content Lake failed on this request' },
        cors,
      )
    }
  }

  // Requests wait for the seed import: it reads its images (async, image-metadata.ts) once the port,
  // which asset URLs carry, is known, and nothing may be answered from a half-seeded dataset.
  let markReady: (prepared: Promise<void>) => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  const failedToStart = {
    statusCode: 503,
    error: 'Service Unavailable',
    message: 'The local Content Lake did not start',
  }
  const server = await listenDualProtocol({
    host,
    port,
    tls,
    timeouts,
    handle: (request, response) =>
      void ready.then(
        () => handle(request, response),
        () => sendJson(response, 503, failedToStart),
      ),
  })
  port = server.port
  attachPresenceSocket((origin) => origin === undefined || corsOrigins.has(origin), server.secure, server.plain)
  const prepared = lake.writer.prepare(options.seedDir, log)
  markReady(prepared)
  await prepared

  const webhook =
    options.webhookUrl === null
      ? null
      : startRevalidateWebhook(store, {
          url: options.webhookUrl ?? `${LOCAL_SITE_URL}/api/revalidate`,
          secret: webhookSecret,
          projectId,
          dataset,
          log,
        })

  return {
    url: publicUrl(),
    httpsUrl: browserUrl(),
    port,
    token: editorToken,
    viewerToken,
    webhookSecret,
    projectId,
    dataset,
    certPath: tls.certPath,
    store,
    images,
    webhooksIdle: async () => webhook?.idle(),
    close: async () => {
      webhook?.stop()
      await queries.close()
      lake.listeners.closeAll()
      lake.live.closeAll()
      await server.close()
      store.close()
    },
  }
}
