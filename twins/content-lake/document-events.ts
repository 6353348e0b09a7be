import type { DocumentChangeKind, HistoryStore, TransactionSummary } from './history-store.ts'
import { publishedIdOf } from './query.ts'

/*
 * The events API the Studio's History panel reads by default (sanity 6.16, `beta.eventsAPI.documents`
 * on): `GET /data/history/<dataset>/events/documents/<id>?limit=N[&nextCursor=…]` answers
 * `{events: {<id>: [...]}, nextCursor}`, the lifecycle events of one variant of a document (its
 * published document, its draft or a release's version), newest first. The Studio gives each an id
 * (`addEventId`) and reads them by type, as its `DocumentGroupEvent` types declare; edits are not
 * events: it derives them itself from the transactions endpoint (`getEditEvents`), between the
 * revision of the newest event (`findEditEventsBaseline`) and now.
 *
 * Each transaction is classified by what it did to the published document and to the variant
 * (created, updated, deleted, untouched), as the Studio's own first version of this mapping did
 * from transactions (`getEventFromTransaction`, before the API existed):
 * - published view: a publish (a version deleted while the published document was written), a
 *   creation or an update made straight to it (`createLiveDocument`, `updateLiveDocument`), an
 *   unpublish (deleted, a draft left), a deletion of the whole group (deleted, no draft left);
 * - draft or version view: its creation, its publication, its discarding (`deleteDocumentVersion`),
 *   the group's deletion.
 */

export type DocumentEvent = { type: string; timestamp: string; author: string; documentId: string } & Record<
  string,
  unknown
>
type Listed = { transactionId: string; position: number; event: DocumentEvent }
const changeOf = (transaction: TransactionSummary, id: string): DocumentChangeKind | 'untouched' =>
  transaction.documents.get(id)?.change ?? 'untouched'
const previousRevOf = (transaction: TransactionSummary, id: string) =>
  transaction.documents.get(id)?.previousRev ?? undefined

/** `versions.<release>.<id>` → `<release>`; the draft's release id is empty, as the hosted API writes it. */
const releaseOf = (id: string) => (id.startsWith('versions.') ? id.split('.')[1] : '')

/** Every event of a document variant, newest first. `current` reads a document as it is now. */
export function documentEvents(
  history: HistoryStore,
  documentId: string,
  current: (id: string) => { _rev?: string } | null,
): Listed[] {
  const publishedId = publishedIdOf(documentId)
  const draftId = `drafts.${publishedId}`
  const variant = documentId === publishedId ? 'published' : documentId === draftId ? 'draft' : 'version'
  const positions = history.touching(new Set([publishedId, draftId, documentId]))
  // Whether the draft exists and its revision, before the first transaction history has of it.
  const draftPositions = history.touching([draftId])
  let draftRev: string | null
  if (draftPositions.length === 0) draftRev = current(draftId)?._rev ?? null
  else draftRev = history.summary(draftPositions[0]).documents.get(draftId)?.previousRev ?? null

  const listed: Listed[] = []
  for (const position of positions) {
    const transaction = history.summary(position)
    const published = changeOf(transaction, publishedId)
    const draft = changeOf(transaction, draftId)
    if (draft !== 'untouched') draftRev = draft === 'deleted' ? null : transaction.id
    const base = { timestamp: transaction.timestamp, author: transaction.author, documentId: publishedId }
    const event = (type: string, fields: Record<string, unknown> = {}) =>
      listed.push({ transactionId: transaction.id, position, event: { type, ...base, ...fields } })
    // The draft or release version this transaction published: deleted as the published document was written.
    const publishedFrom =
      published === 'created' || published === 'updated'
        ? [...transaction.documents.keys()].find(
            (id) => id !== publishedId && publishedIdOf(id) === publishedId && changeOf(transaction, id) === 'deleted',
          )
        : undefined
    const publish = (versionId: string) =>
      event('publishDocumentVersion', {
        revisionId: transaction.id,
        releaseId: releaseOf(versionId),
        versionId,
        versionRevisionId: previousRevOf(transaction, versionId),
        publishCause: versionId === draftId ? 'document.publish' : 'release.publish',
      })
    const groupDeleted = published === 'deleted' && draftRev === null

    if (variant === 'published') {
      if (publishedFrom) publish(publishedFrom)
      else if (published === 'created') event('createLiveDocument', { revisionId: transaction.id })
      else if (published === 'updated') event('updateLiveDocument', { revisionId: transaction.id })
      else if (groupDeleted) event('deleteDocumentGroup')
      else if (published === 'deleted')
        event('unpublishDocument', { releaseId: '', versionId: draftId, versionRevisionId: draftRev ?? undefined })
      continue
    }
    const own = changeOf(transaction, documentId)
    if (publishedFrom === documentId) publish(documentId)
    else if (own === 'created')
      event('createDocumentVersion', {
        releaseId: releaseOf(documentId),
        versionId: documentId,
        versionRevisionId: transaction.id,
      })
    else if (groupDeleted) event('deleteDocumentGroup')
    else if (own === 'deleted')
      event('deleteDocumentVersion', {
        releaseId: releaseOf(documentId),
        versionId: documentId,
        versionRevisionId: previousRevOf(transaction, documentId),
      })
  }
  return listed.reverse()
}

/** One page of events, newest first: `nextCursor` names the transaction the next page starts before ('' at the end). */
export function eventsPage(
  history: HistoryStore,
  documentId: string,
  current: (id: string) => { _rev?: string } | null,
  { limit, cursor }: { limit: number; cursor: string | null },
): { events: DocumentEvent[]; nextCursor: string } {
  const all = documentEvents(history, documentId, current)
  let start = 0
  if (cursor) {
    const position = history.positionOf(cursor)
    if (position === undefined) return { events: [], nextCursor: '' } // gone with retention
    start = all.findIndex((listed) => listed.position < position)
    if (start < 0) start = all.length
  }
  const page = all.slice(start, start + limit)
  const more = start + limit < all.length
  return { events: page.map((listed) => listed.event), nextCursor: more ? (page.at(-1)?.transactionId ?? '') : '' }
}
