// @ts-check
/*
 * Published changes shared by the replicas of the site through Redis (or Valkey: the same protocol).
 * A replica that revalidates a tag (the webhook reached it) records it in a Redis hash and announces it
 * on a channel; every other replica marks the tag stale in its own Next tag manifest, as the webhook
 * does (app/api/revalidate), so its next request renders the new content (that request still gets the
 * last version: a render that fails keeps it), and tells its server's memory cache to let go
 * (`onPublished`).
 *
 * Redis is never on a request's path: publishing does not wait for it, and a replica that cannot reach
 * it keeps serving from its own cache, says so once, reconnects by itself, and on reconnecting catches
 * up with what it missed (the hash) and sends what it published meanwhile.
 *
 * Plain JavaScript (checked by TypeScript through JSDoc): Next imports its cache handler as it is,
 * compiling nothing, on whatever Node serves the build.
 */
import { randomUUID } from 'node:crypto'

/** @typedef {{ stale?: number, expired?: number }} TagState */
/** @typedef {{ get(tag: string): TagState | undefined, set(tag: string, state: TagState): unknown }} TagManifest */
/** @typedef {{ tag: string, id: string, at: number }} TagEvent */
/**
 * @typedef {object} TagSyncOptions
 * @property {string} url `redis://` or `rediss://` URL (REDIS_URL)
 * @property {string} [prefix] the keys' and channel's prefix (REDIS_KEY_PREFIX), so several sites may share a Redis
 * @property {TagManifest} manifest this replica's tag manifest (Next's)
 * @property {(tags: string[]) => void} [onPublished] after another replica's publish was applied
 * @property {(message: string) => void} [log]
 * @property {number} [timeoutMs] the longest any Redis command may take (default 1000)
 * @property {number} [catchUpMs] how often the hash is read again, in case a message was lost (default 30 s)
 */

/** Past this, the oldest publishes waiting for Redis are dropped (the hash is caught up on reconnect). */
const MAX_PENDING = 1000

/**
 * A published tag as recorded (`{id, at}`) or announced (`{tag, id, at}`), or null when it is not one
 * of ours (another program's writes under our prefix: skipped, never thrown inside the client's callbacks).
 * @param {unknown} tag @param {unknown} value @returns {TagEvent | null}
 */
function toEvent(tag, value) {
  const { id, at } = /** @type {{ id?: unknown, at?: unknown }} */ (value ?? {})
  return typeof tag === 'string' && typeof id === 'string' && typeof at === 'number' && Number.isFinite(at)
    ? { tag, id, at }
    : null
}

/** JSON.parse, or undefined for text that is not JSON. @param {string} text @returns {unknown} */
function parseJson(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * An announcement on the channel, or null when it is not one of ours.
 * @param {string} message @returns {{ sender: string, events: TagEvent[] } | null}
 */
function parseMessage(message) {
  const { sender, events } = /** @type {{ sender?: unknown, events?: unknown }} */ (parseJson(message) ?? {})
  if (typeof sender !== 'string' || !Array.isArray(events)) return null
  const valid = events.map((event) => toEvent(event?.tag, event)).filter((event) => event !== null)
  return { sender, events: valid }
}

/** What a URL shows in a log: never its password. */
export function redactedUrl(/** @type {string} */ url) {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'an invalid REDIS_URL'
  }
}

/** @param {TagSyncOptions} options */
export async function startTagSync({
  url,
  prefix = 'plume:',
  manifest,
  onPublished = () => {},
  log = console.error,
  timeoutMs = 1000,
  catchUpMs = 30_000,
}) {
  const { createClient } = await import('@redis/client')
  const hashKey = `${prefix}published-tags`
  const channel = `${prefix}published`
  const sender = randomUUID()
  /** The last event applied (or made) per tag: what the hash is compared with when catching up. */
  const seen = new Map()
  /** Publishes made while Redis was unreachable, sent on reconnect (the newest per tag). */
  const pending = new Map()
  let down = false
  let closed = false
  /** Said once, on the first connection: that this replica shares its publishes. */
  let announced = false

  const options = {
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    pingInterval: 10_000,
    socket: {
      connectTimeout: timeoutMs,
      // 100 ms, 200 ms, … at most 5 s apart: a Redis back is found within seconds.
      reconnectStrategy: (/** @type {number} */ retries) => Math.min(100 * 2 ** retries, 5000),
    },
  }
  const client = createClient(options)
  const subscriber = client.duplicate()
  const unreachable = (/** @type {unknown} */ error) => {
    if (down || closed) return
    down = true
    log(
      `[shared cache] Redis at ${redactedUrl(url)} is unreachable (${/** @type {Error} */ (error)?.message ?? error}): this replica serves from its own cache and reconnects by itself`,
    )
  }
  client.on('error', unreachable)
  subscriber.on('error', unreachable)

  /** @param {TagEvent} event @param {number} staleAt */
  const apply = (event, staleAt) => {
    if (seen.get(event.tag) === event.id) return false
    seen.set(event.tag, event.id)
    manifest.set(event.tag, { ...manifest.get(event.tag), stale: staleAt })
    return true
  }

  /** The hash read again: every tag published since this replica last heard. */
  let caughtUpOnce = false
  const catchUp = async () => {
    /** @type {Record<string, string>} */
    const recorded = await client.hGetAll(hashKey)
    const changed = []
    for (const [tag, text] of Object.entries(recorded)) {
      const event = toEvent(tag, parseJson(text))
      if (!event) continue
      // At start, a publish is dated by its own time: pages rendered after it (a newer build) stay
      // fresh. Later, a publish missed while away makes the tag stale now.
      if (apply(event, caughtUpOnce ? Date.now() : Math.min(event.at, Date.now()))) changed.push(tag)
    }
    caughtUpOnce = true
    if (changed.length) onPublished(changed)
  }

  /** @param {TagEvent[]} events */
  const send = async (events) => {
    const fields = Object.fromEntries(events.map(({ tag, id, at }) => [tag, JSON.stringify({ id, at })]))
    await client.hSet(hashKey, fields)
    await client.publish(channel, JSON.stringify({ sender, events }))
  }

  const flushPending = async () => {
    if (pending.size === 0) return
    const events = [...pending.values()]
    pending.clear()
    await send(events).catch((error) => {
      for (const event of events) if (!pending.has(event.tag)) pending.set(event.tag, event)
      unreachable(error)
    })
  }

  /** @type {Promise<void>} */
  let whenReadyDone = Promise.resolve()
  const whenReady = async () => {
    if (closed) return
    try {
      await catchUp()
      await flushPending()
      if (down) log(`[shared cache] Redis at ${redactedUrl(url)} is reachable again: publishes are shared`)
      else if (!announced)
        log(`[shared cache] publishes are shared with the other replicas through Redis at ${redactedUrl(url)}`)
      announced = true
      down = false
    } catch (error) {
      unreachable(error)
    }
  }
  client.on('ready', () => {
    whenReadyDone = whenReady()
  })

  // connect() retries until Redis answers (reconnectStrategy): nothing here waits for it.
  subscriber
    .connect()
    .then(() =>
      subscriber.subscribe(channel, (/** @type {string} */ message) => {
        const announced = parseMessage(message)
        if (!announced || announced.sender === sender) return
        const now = Date.now()
        const changed = announced.events.filter((event) => apply(event, now)).map((event) => event.tag)
        if (changed.length) onPublished(changed)
      }),
    )
    .catch(unreachable)
  // Resubscribed after an outage (node-redis does it): what was published before that is in the hash.
  subscriber.on('ready', () => caughtUpOnce && catchUp().catch(unreachable))
  // The first connection and catch-up: a replica started after a publish serves it from its first
  // request (its cache handler waits for this, for a bounded time).
  /** @type {Promise<void>} */
  const ready = new Promise((resolve) => {
    client.once('ready', () => void whenReadyDone.then(resolve))
    client.connect().catch((error) => {
      unreachable(error)
      resolve()
    })
  })
  const timer = setInterval(() => {
    if (!down) catchUp().catch(unreachable)
  }, catchUpMs)
  timer.unref()

  return {
    /** Resolves once the first catch-up is done or has failed; pending while Redis cannot be reached. */
    ready,
    /** Announces tags this replica revalidated; never throws, never waits on Redis for the caller. */
    publish(/** @type {string[]} */ tags) {
      const at = Date.now()
      const events = tags.map((tag) => ({ tag, id: `${at}-${randomUUID()}`, at }))
      for (const event of events) seen.set(event.tag, event.id)
      if (down || !client.isReady) {
        for (const event of events) {
          pending.delete(event.tag)
          pending.set(event.tag, event)
        }
        while (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value)
        return Promise.resolve()
      }
      return send(events).catch((error) => {
        for (const event of events) pending.set(event.tag, event)
        unreachable(error)
      })
    },
    async close() {
      closed = true
      clearInterval(timer)
      await Promise.allSettled([client.close(), subscriber.close()])
    },
  }
}
