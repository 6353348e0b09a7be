import { send } from '../../http-kit.ts'
import { badRequest, gatewayError } from '../content-lake-error.ts'
import { eventsPage } from '../document-events.ts'
import type { HistoryStore, StoredTransaction } from '../history-store.ts'
import { visibleTo } from '../query.ts'
import { dataEndpoint, type Lake, type Route } from './route.ts'

/*
 * Sanity's History API (https://www.sanity.io/docs/http-reference/history) as the Studio calls it:
 * - documents/<ids>?revision=|time=|lastRevision=true: the documents as they were (restore, compare;
 *   `getDocumentAtRevision` in sanity's datastores and events store);
 * - transactions/<ids>?…: NDJSON, one transaction a line (the document timeline, review changes,
 *   divergences; `getTransactionsLogs`, `TimelineController.fetchMoreTransactions`);
 * - events/documents/<id>?limit&nextCursor: the History panel's events (document-events.ts).
 * Authenticated like the other data endpoints; a document the token may not see is left out of every
 * answer, and so are the transactions that touched only such documents.
 */

type Exchange = Parameters<Route['serve']>[0]

const ids = (segment: string | undefined) => (segment ?? '').split(',').filter(Boolean)
const flag = (url: URL, name: string) => url.searchParams.get(name) === 'true'

function time(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name)
  if (value === null || value === '') return undefined
  const parsed = Date.parse(value)
  if (Number.isNaN(parsed)) throw badRequest(`"${name}" must be a date and time (ISO 8601), got "${value}"`)
  return parsed
}

/** GET documents/<ids>: each document as it was at a revision, at a time, or last before its deletion. */
function documentsAt({ url, json }: Exchange, lake: Lake, idList: string[], visible: (id: string) => boolean) {
  const { history } = lake.store
  const revision = url.searchParams.get('revision')
  const at = time(url, 'time')
  const lastRevision = flag(url, 'lastRevision')
  if ([revision !== null, at !== undefined, lastRevision].filter(Boolean).length > 1)
    throw badRequest('Only one of "revision", "time" and "lastRevision" may be given')
  const documents = idList.filter(visible).flatMap((id) => {
    const current = lake.store.get(id)
    if (lastRevision) return history.lastRevision(id, current) ?? []
    if (revision === null) return history.documentAt(id, current, history.positionAtTime(at ?? Date.now())) ?? []
    const position = history.positionOf(revision)
    // A revision history no longer holds is still the current one of a document that kept it.
    if (position === undefined) return current?._rev === revision ? current : []
    return history.documentAt(id, current, position) ?? []
  })
  json(200, { documents })
}

/** The parameters of transactions/<ids>, as the Studio and the History API reference name them. */
function transactionsQuery(url: URL, history: HistoryStore) {
  // A bound given is { position }, undefined when history does not hold that transaction.
  const bound = (name: string) => {
    const id = url.searchParams.get(name)
    return id ? { position: history.positionOf(id) } : undefined
  }
  const limit = url.searchParams.get('limit')
  if (limit !== null && !/^\d+$/.test(limit)) throw badRequest(`"limit" must be a whole number, got "${limit}"`)
  const authors = [...url.searchParams.getAll('authors'), ...url.searchParams.getAll('author')].flatMap(ids)
  return {
    from: bound('fromTransaction'),
    to: bound('toTransaction'),
    fromTime: time(url, 'fromTime'),
    toTime: time(url, 'toTime'),
    authors: authors.length > 0 ? new Set(authors) : null,
    limit: limit === null ? Infinity : Number(limit),
    reverse: flag(url, 'reverse'),
    excludeContent: flag(url, 'excludeContent'),
    excludeMutations: flag(url, 'excludeMutations'),
    identifiedOnly: flag(url, 'includeIdentifiedDocumentsOnly'),
    mendoza: url.searchParams.get('effectFormat') === 'mendoza',
  }
}

/** A mutation without the documents' content: what it did, and to which id (`excludeContent=true`). */
function withoutContent(mutation: unknown): unknown {
  if (!mutation || typeof mutation !== 'object') return mutation
  return Object.fromEntries(
    Object.entries(mutation).map(([kind, body]) => {
      const target = (body ?? {}) as Record<string, unknown>
      const kept = kind.startsWith('create') ? { _id: target._id } : { id: target.id, query: target.query }
      return [kind, kept]
    }),
  )
}

/** The id a mutation targets (none for a query-selected one). */
function targetOf(mutation: unknown): string | undefined {
  const body = mutation && typeof mutation === 'object' ? Object.values(mutation)[0] : undefined
  const target = (body ?? {}) as Record<string, unknown>
  const id = target._id ?? target.id
  return typeof id === 'string' ? id : undefined
}

/** GET transactions/<ids>: the transactions that touched any of them, as NDJSON. */
function transactions(
  { url, response, cors }: Exchange,
  lake: Lake,
  idList: string[],
  visible: (id: string) => boolean,
) {
  const { history } = lake.store
  const query = transactionsQuery(url, history)
  const asked = new Set(idList.filter(visible))
  // Both bounds are included. An unknown lower bound lies before the history kept: from the oldest kept;
  // an unknown upper one too: nothing.
  const from = query.from?.position ?? -Infinity
  const to = query.to ? (query.to.position ?? -Infinity) : Infinity
  const [fromTime, toTime] = [query.fromTime ?? -Infinity, query.toTime ?? Infinity]
  const positions = history.touching(asked).filter((at) => {
    const timestamp = Date.parse(history.timestampAt(at))
    return at >= from && at <= to && timestamp >= fromTime && timestamp <= toTime
  })
  if (query.reverse) positions.reverse()
  const lines: string[] = []
  for (const position of positions) {
    if (lines.length >= query.limit) break
    if (query.authors && !query.authors.has(history.authorAt(position))) continue
    const transaction = history.transaction(position)
    const shown = (id: string) => visible(id) && (!query.identifiedOnly || asked.has(id))
    lines.push(JSON.stringify(transactionLine(transaction, shown, query)))
  }
  send(response, 200, lines.map((line) => `${line}\n`).join(''), { ...cors, 'Content-Type': 'application/x-ndjson' })
}

function transactionLine(
  transaction: StoredTransaction,
  shown: (id: string) => boolean,
  query: ReturnType<typeof transactionsQuery>,
) {
  const documentIDs = Object.keys(transaction.effects).filter(shown)
  const line: Record<string, unknown> = {
    id: transaction.id,
    timestamp: transaction.timestamp,
    author: transaction.author,
  }
  if (!query.excludeMutations) {
    const mutations = transaction.mutations.filter((mutation) => {
      const target = targetOf(mutation)
      return target === undefined ? !query.identifiedOnly : shown(target)
    })
    line.mutations = query.excludeContent ? mutations.map(withoutContent) : mutations
  }
  line.documentIDs = documentIDs
  if (query.mendoza) {
    line.effects = Object.fromEntries(
      documentIDs.map((id) => [id, { apply: transaction.effects[id].apply, revert: transaction.effects[id].revert }]),
    )
  }
  return line
}

/** GET /data/history/<dataset>/(documents|transactions|events/documents)/<ids>. */
export const dataHistory: Route = {
  matches: dataEndpoint('history', 'GET'),
  serve: (exchange, lake) => {
    const {
      request,
      url,
      json,
      method,
      path,
      segments: [, , dataset, kind, ...rest],
    } = exchange
    lake.requireDataset(dataset)
    const visibleDocument = visibleTo(lake.access.authenticate(request, true))
    const visible = (id: string) => visibleDocument({ _id: id, _type: '' })
    if (kind === 'documents' && rest.length === 1) return documentsAt(exchange, lake, ids(rest[0]), visible)
    if (kind === 'transactions' && rest.length === 1) return transactions(exchange, lake, ids(rest[0]), visible)
    if (kind === 'events' && rest[0] === 'documents' && rest.length === 2) {
      const limit = Number(url.searchParams.get('limit') ?? 100)
      if (!Number.isInteger(limit) || limit < 1) throw badRequest('"limit" must be a whole number over 0')
      const cursor = url.searchParams.get('nextCursor')
      const current = (id: string) => lake.store.get(id)
      const events: Record<string, unknown[]> = {}
      let nextCursor = ''
      for (const id of ids(rest[1]).filter(visible)) {
        const page = eventsPage(lake.store.history, id, current, { limit, cursor })
        events[id] = page.events
        nextCursor ||= page.nextCursor
      }
      return json(200, { events, nextCursor })
    }
    // Releases' events (`beta.eventsAPI.releases`, off by default): there are no releases here.
    if (kind === 'events') return json(200, { events: {}, nextCursor: '' })
    throw gatewayError(404, 'Not Found', `No such endpoint: ${method} ${path}`)
  },
}
