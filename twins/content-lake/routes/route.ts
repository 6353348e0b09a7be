import type { AssetFiles } from '../assets.ts'
import type { DatasetWriter } from '../dataset-writer.ts'
import type { ImageCdn } from '../image-cdn.ts'
import type { DocumentStore } from '../document-store.ts'
import type { LakeAccess } from '../access.ts'
import type { ListenerHub } from '../listener.ts'
import type { LiveEventHub } from '../live-events.ts'
import type { QueryPool } from '../query-pool.ts'
import type { SignInSessions } from '../sign-in.ts'
import type { StreamGate } from '../stream-gate.ts'
import type { Exchange } from './exchange.ts'
import type { TwinIdentity } from '../../twins.ts'

/** What the routes serve from: one project's one dataset and the parts that read and write it. */
export type Lake = {
  projectId: string
  dataset: string
  store: DocumentStore
  files: AssetFiles
  /** Image transforms as Sanity's CDN makes them, cached and queued (image-cdn.ts). */
  images: ImageCdn
  queries: QueryPool
  writer: DatasetWriter
  access: LakeAccess
  listeners: ListenerHub
  live: LiveEventHub
  /** Opens listener and live-event streams within their caps, and closes those whose client does not read. */
  streams: StreamGate
  /** The dataset's one sync tag (the live-content API's cache tag). */
  syncTag: string
  editorToken: string
  viewerToken: string
  /** The browser origins allowed by CORS (the site's): the only places the Studio's sign-in returns to. */
  corsOrigins: ReadonlySet<string>
  /** The Studio's base path on those origins (`/studio`): the sign-in returns under it only. */
  studioPath: string
  /** The HTTPS base browsers reach this lake at, `https://localhost:<port>` (the sign-in page's address). */
  browserUrl: () => string
  /** The Studio's pending sign-ins (`#sid=` ids waiting for `/auth/fetch`). */
  signIns: SignInSessions
  webhookSecret: string
  /** The Studio's per-user key-value store (`/users/me/keyvalue`), kept in memory. */
  keyValues: Map<string, unknown>
  /** What `GET /_twin` answers: this twin, its data folder (real path, null in memory), its process. */
  twin: TwinIdentity
  /** Throws the gateway's 404 unless `name` is this dataset. */
  requireDataset: (name: string | undefined) => void
}

/** One endpoint (or a family of them): which requests it takes, and how it answers them. */
export type Route = {
  matches: (exchange: Exchange, lake: Lake) => boolean
  serve: (exchange: Exchange, lake: Lake) => void | Promise<void>
}

/** The data endpoints /data/<endpoint>/<dataset>/<rest…>, matched on method, endpoint and rest's length. */
export const dataEndpoint = (endpoint: string, method: string | null, restLength?: number) => (exchange: Exchange) =>
  exchange.segments[0] === 'data' &&
  exchange.segments[1] === endpoint &&
  (method === null || exchange.method === method) &&
  (restLength === undefined || exchange.segments.length === 3 + restLength)
