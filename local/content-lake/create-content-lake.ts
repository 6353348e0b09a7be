import { randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createSecureServer, constants as http2Constants, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2'
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { applyAction } from './actions.ts'
import { AssetFiles, contentTypeOf, describeUpload, type AssetKind } from './assets.ts'
import { LOCAL_DATASET, LOCAL_EDITOR, LOCAL_PROJECT_ID, LOCAL_SITE_URL } from './defaults.ts'
import { DocumentStore, type SanityDocument } from './document-store.ts'
import { MAX_ASSET_BYTES, bearerToken, gatewayError, header, readBody, readJson, send, sendJson, type Request, type Response } from './http-kit.ts'
import { ListenerHub } from './listener.ts'
import { LiveEventHub, datasetSyncTag } from './live-events.ts'
import { ContentLakeError, badRequest } from './content-lake-error.ts'
import { Transaction, type MutationInput } from './mutations.ts'
import { MAX_QUERY_BODY_BYTES, paramsFromSearch, parsePerspective, visibleTo } from './query.ts'
import { DEFAULT_QUERY_TIMEOUT_MS, QueryPool } from './query-pool.ts'
import { readSeed, withAssetReferences } from './seed.ts'
import { loadOrCreateCertificate } from './tls.ts'
import { startRevalidateWebhook } from './webhook.ts'
import { attachPresenceSocket } from './presence-socket.ts'

/*
 * A local Content Lake: the subset of Sanity's HTTP API that the embedded Studio, @sanity/client /
 * next-sanity and our scripts use (local/README.md lists it), over one dataset kept in
 * memory and made durable by an fsynced transaction log. One loopback port speaks plain HTTP/1.1
 * (Node clients: the site, scripts, the Sanity CLI) and HTTP/2 over TLS (the Studio in a browser):
 * the first byte of a connection tells a TLS handshake from a plain request.
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
  /** Where published changes are POSTed (the site's /api/revalidate); null turns the webhook off. */
  webhookUrl?: string | null
  /** The webhook's secret; otherwise generated once and kept in the data folder (never a default). */
  webhookSecret?: string
  /** Fixed editor token (tests); otherwise generated once and kept in the data folder. */
  token?: string
  log?: (entry: Record<string, unknown>) => void
  /** Query threads (default: up to two, one per core). */
  queryWorkers?: number
  /** How long one query may run before it is stopped with a 400 (default 10 s). */
  queryTimeoutMs?: number
  /** Limits on slow or silent clients (defaults: DEFAULT_CONNECTION_TIMEOUTS). */
  connectionTimeouts?: Partial<ConnectionTimeouts>
  /** Interval of the keep-alive comments on listener and live-event streams (default 15 s). */
  keepAliveMs?: number
}

export type ConnectionTimeouts = {
  /** From connecting to the end of the request headers (the TLS handshake included). */
  headersMs: number
  /** From connecting to the start of the response (Node's requestTimeout): at least the query limit + 1 s. */
  requestMs: number
  /** A connection with no request in progress (HTTP/1.1 keep-alive, an HTTP/2 session with no stream). */
  idleMs: number
}

/**
 * Long enough for any honest client on loopback; the idle limit is above the streams' 15 s
 * keep-alives, which a live listener sends, so listeners are never cut.
 */
/** How long a query may wait for a fresh thread (after another's was stopped) before its time limit starts. */
const QUERY_THREAD_START_ALLOWANCE_MS = 8_000

export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = { headersMs: 10_000, requestMs: 30_000, idleMs: 60_000 }

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
  /** Resolves when every webhook delivery started so far has finished (tests). */
  webhooksIdle: () => Promise<void>
  close: () => Promise<void>
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])
const VERSION_PREFIX = /^\/v(\d{4}-\d{2}-\d{2}|1|X)(\/.*|$)/

export async function startContentLake(options: ContentLakeOptions = {}): Promise<ContentLake> {
  const host = options.host ?? '127.0.0.1'
  const projectId = options.projectId ?? LOCAL_PROJECT_ID
  const dataset = options.dataset ?? LOCAL_DATASET
  const corsOrigins = new Set((options.corsOrigins ?? [LOCAL_SITE_URL, LOCAL_SITE_URL.replace('localhost', '127.0.0.1')]).map((origin) => origin.replace(/\/+$/, '')))
  const log = options.log ?? ((entry) => console.log(JSON.stringify({ time: new Date().toISOString(), ...entry })))
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })

  const store = new DocumentStore(options.dataDir && join(options.dataDir, dataset))
  const files = new AssetFiles(options.dataDir && join(options.dataDir, dataset, 'assets'))
  const tls = await loadOrCreateCertificate(options.tlsDir ?? (options.dataDir && join(options.dataDir, 'tls')))
  const token = options.token ?? loadOrCreateSecret(options.dataDir, 'editor-token', 'sk')
  const viewerToken = loadOrCreateSecret(options.dataDir, 'viewer-token', 'sk')
  const webhookSecret = options.webhookSecret ?? loadOrCreateSecret(options.dataDir, 'webhook-secret', '')
  const keyValues = new Map<string, unknown>()
  const hub = new ListenerHub(store, { projectId, dataset }, options.keepAliveMs)
  const syncTag = datasetSyncTag(projectId, dataset)
  const live = new LiveEventHub(store, syncTag, options.keepAliveMs)
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS
  const queries = new QueryPool(store, { size: options.queryWorkers, timeoutMs: queryTimeoutMs, context: { projectId, dataset }, log })
  const timeouts = { ...DEFAULT_CONNECTION_TIMEOUTS, ...options.connectionTimeouts }
  // Node's request limit runs until the response starts, so it must leave a query its whole time and
  // the start of a fresh query thread (seconds on a busy machine) before it.
  timeouts.requestMs = Math.max(timeouts.requestMs, queryTimeoutMs + QUERY_THREAD_START_ALLOWANCE_MS)

  let port = options.port ?? 0
  const publicUrl = () => `http://127.0.0.1:${port}`
  const assetContext = () => ({ projectId, dataset, publicUrl: publicUrl() })

  function presents(request: Request, expected: string): boolean {
    const presented = bearerToken(request)
    if (!presented) return false
    const a = Buffer.from(presented)
    const b = Buffer.from(expected)
    return a.length === b.length && timingSafeEqual(a, b)
  }
  const isEditor = (request: Request) => presents(request, token)

  /** Writes need the editor token: the viewer token (a Viewer's, as the site previews with) only reads. */
  function requireEditor(request: Request) {
    if (!isEditor(request)) throw gatewayError(403, 'Forbidden', 'Insufficient permissions: this token reads only; writing needs the local editor token')
  }

  /** A token that is not ours is refused everywhere, as the Content Lake refuses an unknown session. */
  function authenticate(request: Request, required: boolean): boolean {
    const presented = bearerToken(request)
    if (presented && !isEditor(request) && !presents(request, viewerToken)) throw gatewayError(401, 'Unauthorized', 'Session not found: the token is not a local token')
    if (required && !presented) throw gatewayError(401, 'Unauthorized', 'Not authorized: this request needs the local editor token')
    return Boolean(presented)
  }

  /** Ids a query-selected patch or delete applies to, as the dataset stands (raw: every document). */
  async function queryIds(query: string, params: Record<string, unknown>): Promise<string[]> {
    const { result } = await queries.run({ query, params, perspective: 'raw', authenticated: true })
    const list = Array.isArray(result) ? result : result ? [result] : []
    return list.map((item) => (item && typeof item === 'object' ? (item as { _id?: unknown })._id : undefined)).filter((id): id is string => typeof id === 'string')
  }

  /**
   * Runs mutations in one transaction. Query-selected ids are resolved first (groq-js is
   * asynchronous, the transaction is not), against the dataset as it stands before the transaction.
   */
  async function mutate(mutations: MutationInput[], identity: string, transactionId: string | undefined, dryRun: boolean) {
    const transaction = new Transaction(store, identity, transactionId)
    const resolved = new Map<string, string[]>()
    for (const mutation of mutations) {
      const body = mutation && typeof mutation === 'object' ? (Object.values(mutation)[0] as Record<string, unknown> | undefined) : undefined
      if (body && typeof body === 'object' && typeof body.query === 'string' && body.id === undefined) {
        const params = body.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : {}
        resolved.set(JSON.stringify([body.query, params]), await queryIds(body.query, params))
      }
    }
    const select = (query: string, params: Record<string, unknown>) => resolved.get(JSON.stringify([query, params])) ?? []
    for (const mutation of mutations) transaction.apply(mutation, select)
    if (!dryRun) transaction.commit()
    return transaction
  }

  async function ingestAsset(kind: AssetKind, bytes: Buffer, filename: string | null, contentType: string | null, identity: string): Promise<SanityDocument> {
    const { document, storedName } = describeUpload(kind, bytes, assetContext(), { filename, contentType })
    const existing = store.get(document._id)
    if (existing) return existing
    files.write(storedName, bytes)
    const transaction = new Transaction(store, identity)
    // createIfNotExists: two uploads of the same bytes at once end with the one asset, not a 409.
    transaction.apply({ createIfNotExists: document }, () => [])
    transaction.commit()
    return store.get(document._id) as SanityDocument
  }

  /** First start: import the seed; later starts: keep asset URLs pointing at this server's port. */
  async function prepareDataset() {
    if (store.isEmpty && options.seedDir) {
      const seed = readSeed(options.seedDir)
      const assetIds = new Map<string, string>()
      for (const upload of seed.uploads) {
        const asset = await ingestAsset('images', upload.bytes, upload.file, null, 'system')
        assetIds.set(upload.file, asset._id)
      }
      const transaction = new Transaction(store, 'system')
      for (const doc of seed.documents) transaction.apply({ createOrReplace: withAssetReferences(doc, assetIds) }, () => [])
      transaction.commit()
      log({ event: 'seeded', documents: seed.documents.length, assets: seed.uploads.length })
    }
    const moved = store.all().filter((doc) => typeof doc.url === 'string' && typeof doc.path === 'string' && doc.url !== `${publicUrl()}/${doc.path}`)
    if (moved.length > 0) {
      const transaction = new Transaction(store, 'system')
      for (const doc of moved) transaction.apply({ patch: { id: doc._id, set: { url: `${publicUrl()}/${doc.path as string}` } } }, () => [])
      transaction.commit()
    }
  }

  function corsHeaders(request: Request): Record<string, string> {
    const origin = header(request, 'origin')
    if (!origin || !corsOrigins.has(origin)) return {}
    return {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': header(request, 'access-control-request-headers') ?? 'authorization, content-type, x-sanity-app',
      'Access-Control-Expose-Headers': 'X-Sanity-Shard',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    }
  }

  async function handle(request: Request, response: Response) {
    const cors = corsHeaders(request)
    try {
      await route(request, response, cors)
    } catch (error) {
      if (error instanceof ContentLakeError) return sendJson(response, error.status, error.body, cors)
      log({ event: 'error', method: request.method, url: request.url, error: error instanceof Error ? error.stack : String(error) })
      sendJson(response, 500, { statusCode: 500, error: 'Internal Server Error', message: 'The local Content Lake failed on this request' }, cors)
    }
  }

  async function route(request: Request, response: Response, cors: Record<string, string>) {
    const method = request.method ?? 'GET'
    const hostHeader = header(request, 'host') ?? header(request, ':authority') ?? ''
    const hostname = hostHeader.replace(/:\d+$/, '').toLowerCase()
    // DNS rebinding: a page on another name that resolves to 127.0.0.1 must not reach the API.
    if (!LOOPBACK_HOSTS.has(hostname) && hostname !== `${projectId}.localhost`) {
      throw gatewayError(403, 'Forbidden', `Unknown host "${hostname}": the local Content Lake answers on localhost only`)
    }
    const origin = header(request, 'origin')
    if (origin && !cors['Access-Control-Allow-Origin'] && origin !== `https://${hostHeader}` && origin !== `http://${hostHeader}`) {
      throw gatewayError(403, 'Forbidden', `CORS origin not allowed: ${origin} (start the server with --cors-origin ${origin})`)
    }
    if (method === 'OPTIONS') return send(response, 204, null, cors)

    let url: URL
    try {
      url = new URL(request.url ?? '/', 'http://localhost')
      decodeURIComponent(url.pathname)
    } catch {
      throw gatewayError(400, 'Bad Request', 'Malformed request URL')
    }
    const versioned = VERSION_PREFIX.exec(url.pathname)
    const apiVersion = versioned?.[1] ?? '1'
    const path = versioned ? versioned[2] || '/' : url.pathname
    const segments = path.split('/').filter(Boolean).map((segment) => decodeURIComponent(segment))
    const requestedProject = /^([a-z0-9-]+)\.localhost$/.exec(hostname)?.[1] ?? header(request, 'x-sanity-project-id') ?? projectId
    if (requestedProject !== projectId) throw gatewayError(404, 'Not Found', `Project "${requestedProject}" not found: the local Content Lake serves project "${projectId}"`)

    const datasetOf = (name: string | undefined) => {
      if (name !== dataset) throw gatewayError(404, 'Not Found', `Dataset "${name}" not found for project ID "${projectId}"`)
    }
    const json = (status: number, value: unknown) => sendJson(response, status, value, cors)
    const [first, second, third] = segments

    // Asset bytes are public, like the CDN's (no version prefix).
    if (!versioned && (first === 'images' || first === 'files') && method === 'GET' && segments.length === 4) {
      if (second !== projectId) throw gatewayError(404, 'Not Found', 'Unknown project')
      datasetOf(third)
      const bytes = /^[a-zA-Z0-9-]+\.[a-z0-9]{1,10}$/.test(segments[3]) ? files.read(segments[3]) : null
      if (!bytes) throw gatewayError(404, 'Not Found', 'Asset not found')
      return send(response, 200, bytes, {
        ...cors,
        'Content-Type': contentTypeOf(segments[3]),
        'Cache-Control': 'public, max-age=31536000, immutable',
        // An uploaded SVG is shown, never run: no scripts, no outside requests.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Allow-Origin': cors['Access-Control-Allow-Origin'] ?? '*',
      })
    }

    if (path === '/' || first === 'ping') return json(200, { name: 'local-content-lake', projectId, dataset })

    // The token an editor's browser signs in with: loopback, this site's origin only (CORS).
    if (first === 'auth' && second === 'local-token' && method === 'GET') {
      const remote = request.socket?.remoteAddress ?? ''
      if (!/^(127\.|::1$|::ffff:127\.)/.test(remote)) throw gatewayError(403, 'Forbidden', 'The editor token is issued on loopback only')
      return sendJson(response, 200, { token }, { ...cors, 'Cache-Control': 'no-store' })
    }
    // What the site's server needs, on loopback, never to a page (no CORS, no Origin): its preview token
    // (reads drafts, writes nothing) and the webhook's secret, both made for this data folder.
    if (first === 'auth' && second === 'local-site-credentials' && method === 'GET') {
      const remote = request.socket?.remoteAddress ?? ''
      if (!/^(127\.|::1$|::ffff:127\.)/.test(remote) || header(request, 'origin') !== undefined) {
        throw gatewayError(403, 'Forbidden', "The site's credentials go to the site's server on loopback only")
      }
      return sendJson(response, 200, { viewerToken, webhookSecret }, { 'Cache-Control': 'no-store' })
    }
    if (first === 'auth' && second === 'providers') return json(200, { thirdPartyLogin: false, sso: { saml: false }, providers: [] })
    if (first === 'auth' && second === 'logout') return json(200, { ok: true })

    if (first === 'users' && second === 'me' && segments.length === 2) {
      authenticate(request, true)
      return json(200, LOCAL_EDITOR)
    }
    if (first === 'users' && second === 'me' && third === 'keyvalue') {
      authenticate(request, true)
      if (method === 'PUT') {
        requireEditor(request)
        const entries = await readJson(request)
        if (!Array.isArray(entries)) throw badRequest('Expected an array of {key, value}')
        for (const entry of entries) if (entry && typeof entry.key === 'string') keyValues.set(entry.key, entry.value)
        return json(200, entries)
      }
      const keys = segments[3] ? segments[3].split(',') : [...keyValues.keys()]
      return json(200, keys.map((key) => ({ key, value: keyValues.get(key) ?? null })))
    }
    if (first === 'users' && second && segments.length === 2) {
      const ids = second.split(',')
      return json(200, ids.filter((id) => id === LOCAL_EDITOR.id).map((id) => ({ id, displayName: LOCAL_EDITOR.name, email: LOCAL_EDITOR.email, imageUrl: null })))
    }

    if (first === 'projects' && second) {
      if (second !== projectId) throw gatewayError(404, 'Not Found', `Project "${second}" not found`)
      const rest = segments.slice(2)
      if (rest.length === 0) {
        return json(200, {
          id: projectId,
          displayName: 'Plume & Cap (local)',
          studioHost: null,
          isBlocked: false,
          isDisabled: false,
          isDisabledByUser: false,
          metadata: {},
          members: [{ id: LOCAL_EDITOR.id, role: 'administrator', roles: LOCAL_EDITOR.roles, isCurrentUser: true, isRobot: false }],
          features: [],
          organizationId: null,
        })
      }
      if (rest[0] === 'datasets' && rest.length === 1) return json(200, [{ name: dataset, aclMode: 'public' }])
      if (rest[0] === 'datasets' && rest[2] === 'acl') {
        datasetOf(rest[1])
        const editor = authenticate(request, false)
        return json(200, [{ filter: '_id in path("**")', permissions: editor ? ['history', 'read', 'create', 'update', 'manage'] : ['read'] }])
      }
      if (rest[0] === 'grants') return json(200, {})
      if (rest[0] === 'features') return json(200, [])
      if (rest[0] === 'user-applications') return json(200, [])
      if (rest[0] === 'new-content-release-allowed') return json(200, { allowed: false })
    }
    if (first === 'features') return json(200, [])
    // Announcements, trials, upsells, the help menu's links and scheduled publishing come from
    // sanity.io: offline there are none, answered as "nothing" rather than 404 (the console stays clean).
    if (first === 'journey') return json(200, second === 'announcements' ? [] : second === 'trial' ? {} : null)
    if (first === 'help') return json(200, { resources: [] })
    if (first === 'schedules') return json(200, { schedules: [] })
    if (first === 'intake' && second === 'telemetry-status') return json(200, { status: 'denied' })
    if (first === 'intake') return json(200, {})
    if (first === 'check' && second === 'cors') return json(200, { result: { allowed: Boolean(cors['Access-Control-Allow-Origin']), withCredentials: true } })

    if (first === 'data' && second === 'live' && third === 'events' && segments.length === 4 && method === 'GET') {
      datasetOf(segments[3])
      const includeDrafts = url.searchParams.get('includeDrafts') === 'true'
      authenticate(request, includeDrafts)
      response.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      live.open({ includeDrafts }, { write: (chunk) => void response.write(chunk), onClose: (callback) => response.on('close', callback) })
      return
    }

    if (first === 'data') {
      const endpoint = second
      datasetOf(third)
      const rest = segments.slice(3)
      if (endpoint === 'query' && rest.length === 0 && (method === 'GET' || method === 'POST')) {
        const started = performance.now()
        const editor = authenticate(request, false)
        let query: string | null = url.searchParams.get('query')
        let params = paramsFromSearch(url.searchParams)
        if (method === 'POST') {
          const tooLarge = `Query size exceeded: the query and its parameters are over ${MAX_QUERY_BODY_BYTES} bytes (the hosted API's limit)`
          const body = (await readJson(request, MAX_QUERY_BODY_BYTES, tooLarge)) as { query?: unknown; params?: unknown } | null
          query = typeof body?.query === 'string' ? body.query : null
          params = body?.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : {}
        }
        if (!query) throw badRequest('The "query" parameter is required', 'queryParseError')
        const perspective = parsePerspective(url.searchParams.get('perspective'), apiVersion)
        const sourceMap = url.searchParams.get('resultSourceMap')
        // A client that goes away stops its query (its thread is replaced).
        const gone = new AbortController()
        response.on('close', () => gone.abort())
        const outcome = await queries.run(
          {
            query,
            params,
            perspective,
            authenticated: editor,
            identity: editor ? LOCAL_EDITOR.id : '',
            sourceMap: sourceMap && sourceMap !== 'false' ? (sourceMap === 'withKeyArraySelector' ? 'withKeyArraySelector' : 'plain') : undefined,
          },
          gone.signal,
        )
        const body: Record<string, unknown> = { result: outcome.result, syncTags: [syncTag], ms: Math.round(performance.now() - started) }
        if (outcome.resultSourceMap) body.resultSourceMap = outcome.resultSourceMap
        if (url.searchParams.get('returnQuery') !== 'false') body.query = query
        return json(200, body)
      }
      if (endpoint === 'doc' && rest.length === 1 && method === 'GET') {
        const editor = authenticate(request, false)
        const visible = visibleTo(editor)
        const ids = rest[0].split(',').filter(Boolean)
        const documents: SanityDocument[] = []
        const omitted: { id: string; reason: string }[] = []
        for (const id of ids) {
          const doc = store.get(id)
          if (doc && visible(doc)) documents.push(doc)
          else omitted.push({ id, reason: doc ? 'permission' : 'existence' })
        }
        return json(200, { documents, omitted })
      }
      if (endpoint === 'mutate' && method === 'POST') {
        authenticate(request, true)
        requireEditor(request)
        const body = (await readJson(request)) as { mutations?: unknown; transactionId?: unknown } | null
        const mutations = body?.mutations
        if (!Array.isArray(mutations)) throw badRequest('The body must be {"mutations": [...]}')
        const dryRun = url.searchParams.get('dryRun') === 'true'
        const transaction = await mutate(mutations as MutationInput[], LOCAL_EDITOR.id, typeof body?.transactionId === 'string' ? body.transactionId : undefined, dryRun)
        const returnDocuments = url.searchParams.get('returnDocuments') === 'true'
        const results = transaction.results.map(({ id, operation }) => (returnDocuments && operation !== 'delete' ? { id, operation, document: dryRun ? transaction.get(id) : store.get(id) } : { id, operation }))
        return json(200, { transactionId: transaction.id, results, ...(returnDocuments ? { documentIds: results.map((r) => r.id) } : {}) })
      }
      if (endpoint === 'actions' && method === 'POST') {
        authenticate(request, true)
        requireEditor(request)
        const body = (await readJson(request)) as { actions?: unknown; transactionId?: unknown; dryRun?: unknown } | null
        const actions = body?.actions
        if (!Array.isArray(actions) || actions.length === 0) throw badRequest('The body must be {"actions": [...]} with at least one action')
        const transaction = new Transaction(store, LOCAL_EDITOR.id, typeof body?.transactionId === 'string' ? body.transactionId : undefined)
        actions.forEach((action, index) => applyAction(transaction, action, index, () => []))
        if (body?.dryRun !== true) transaction.commit()
        return json(200, { transactionId: transaction.id })
      }
      if (endpoint === 'listen' && method === 'GET') {
        const editor = authenticate(request, false)
        const query = url.searchParams.get('query')
        if (!query) throw badRequest('The "query" parameter is required', 'queryParseError')
        const flag = (name: string, fallback: boolean) => {
          const value = url.searchParams.get(name)
          return value === null ? fallback : value !== 'false'
        }
        const listenOptions = {
          query,
          params: paramsFromSearch(url.searchParams),
          authenticated: editor,
          includeResult: flag('includeResult', true),
          includePreviousRevision: flag('includePreviousRevision', false),
          includeMutations: flag('includeMutations', true),
          includeAllVersions: flag('includeAllVersions', false),
          effectFormat: url.searchParams.get('effectFormat'),
        }
        const tree = hub.prepare(listenOptions)
        response.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
        hub.open(listenOptions, tree, {
          write: (chunk) => void response.write(chunk),
          onClose: (callback) => response.on('close', callback),
        })
        return
      }
      if (endpoint === 'export' && method === 'GET') {
        const editor = authenticate(request, false)
        const types = url.searchParams.get('types')?.split(',').filter(Boolean)
        const docs = store.all().filter(visibleTo(editor)).filter((doc) => !types || types.includes(doc._type))
        return send(response, 200, docs.map((doc) => JSON.stringify(doc)).join('\n') + (docs.length ? '\n' : ''), { ...cors, 'Content-Type': 'application/x-ndjson' })
      }
      if (endpoint === 'history') {
        // No history is kept: the Studio's history panes show nothing to restore.
        authenticate(request, true)
        if (rest[0] === 'events') return json(200, { events: {}, nextCursor: '' })
        if (rest[0] === 'transactions') return send(response, 200, '', { ...cors, 'Content-Type': 'application/x-ndjson' })
        if (rest[0] === 'documents') return json(200, { documents: [] })
      }
      if (endpoint === 'references' && method === 'GET') {
        authenticate(request, true)
        return json(200, { totalCount: 0, references: [] })
      }
    }

    if (first === 'assets' && (second === 'images' || second === 'files') && method === 'POST') {
      datasetOf(third)
      authenticate(request, true)
      requireEditor(request)
      const bytes = await readBody(request, MAX_ASSET_BYTES)
      const document = await ingestAsset(second, bytes, url.searchParams.get('filename'), header(request, 'content-type') ?? null, LOCAL_EDITOR.id)
      return json(200, { document })
    }

    throw gatewayError(404, 'Not Found', `No such endpoint: ${method} ${path}`)
  }

  /*
   * One port, two protocols: TLS handshakes go to the HTTP/2 server, anything else to HTTP/1.1.
   * Every stage of a connection has a time limit (issue #20: slow headers, silent sockets and
   * half-sent TLS records stayed open forever): the first byte, the TLS handshake, the request
   * headers, the request body, and idleness between requests. A response in progress — a
   * listener's stream — is never cut: its request is complete and it writes keep-alives.
   */
  const plain = createHttpServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: Math.min(5_000, timeouts.idleMs),
      // How often Node checks the two limits above (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
    },
    (request, response) => void handle(request, response),
  )
  // No byte either way for this long (a stalled exchange; a stream's keep-alives reset it). Not less
  // than the request limit: a request waiting for its query's answer is silent meanwhile.
  plain.timeout = Math.max(timeouts.idleMs, timeouts.requestMs)
  const secure = createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true, handshakeTimeout: timeouts.headersMs }, (request, response) => {
    // The compatibility API's request and response stand in for HTTP/1.1's (see http-kit.ts).
    void handle(request as unknown as Request, response as unknown as Response)
  })
  secure.setTimeout(0) // replaced by the limits below, which look at streams rather than bytes
  secure.on('session', (session: ServerHttp2Session) => limitSession(session, timeouts))
  secure.on('stream', (stream: ServerHttp2Stream) => limitStream(stream, timeouts))
  const sockets = new Set<Socket>()
  const front = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    // Until its first byte the connection belongs to no server: it gets the headers limit here.
    socket.setTimeout(timeouts.headersMs, () => socket.destroy())
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0)
      socket.pause()
      socket.unshift(chunk)
      ;(chunk[0] === 0x16 ? secure : plain).emit('connection', socket)
      process.nextTick(() => socket.resume())
    })
  })
  attachPresenceSocket((origin) => origin === undefined || corsOrigins.has(origin), secure, plain)

  await new Promise<void>((resolve, reject) => {
    front.once('error', reject)
    front.listen(port, host, () => {
      front.off('error', reject)
      resolve()
    })
  })
  port = (front.address() as AddressInfo).port
  // The HTTP servers get their connections from `front` and never listen themselves, but Node
  // starts checking headersTimeout / requestTimeout on 'listening' only: without this, never.
  plain.emit('listening')
  secure.emit('listening')
  await prepareDataset()

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
    httpsUrl: `https://localhost:${port}`,
    port,
    token,
    viewerToken,
    webhookSecret,
    projectId,
    dataset,
    certPath: tls.certPath,
    store,
    webhooksIdle: async () => webhook?.idle(),
    close: async () => {
      webhook?.stop()
      await queries.close()
      hub.closeAll()
      live.closeAll()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => front.close(() => resolve()))
      plain.close()
      secure.close()
      store.close()
    },
  }
}

/** A token or secret, made once per data folder (or per run in memory), kept in `<dataDir>/<file>`. */
function loadOrCreateSecret(dataDir: string | undefined, file: string, prefix: string): string {
  const fresh = () => `${prefix}${randomBytes(32).toString('base64url')}`
  if (!dataDir) return fresh()
  const path = join(dataDir, file)
  if (existsSync(path)) {
    const saved = readFileSync(path, 'utf8').trim()
    if (saved.length >= 32) return saved
  }
  const token = fresh()
  writeFileSync(path, `${token}\n`, { mode: 0o600 })
  return token
}

/**
 * An HTTP/2 session must open a stream within the headers limit, and is closed once it has had no
 * stream for the idle limit — whatever frames it trickles (pings, half a HEADERS frame) meanwhile.
 */
function limitSession(session: ServerHttp2Session, timeouts: ConnectionTimeouts) {
  let open = 0
  let timer: NodeJS.Timeout | undefined
  const arm = (ms: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => session.destroy(), ms)
    timer.unref()
  }
  arm(timeouts.headersMs)
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++
    clearTimeout(timer)
    stream.once('close', () => {
      if (--open === 0 && !session.destroyed) arm(timeouts.idleMs)
    })
  })
  session.once('close', () => clearTimeout(timer))
}

/** An HTTP/2 request whose body is still arriving when the request limit passes is cancelled. */
function limitStream(stream: ServerHttp2Stream, timeouts: ConnectionTimeouts) {
  if (stream.endAfterHeaders) return // no body: complete already
  const timer = setTimeout(() => {
    if (!stream.readableEnded && !stream.headersSent) stream.close(http2Constants.NGHTTP2_CANCEL)
  }, timeouts.requestMs)
  timer.unref()
  stream.once('close', () => clearTimeout(timer))
}
