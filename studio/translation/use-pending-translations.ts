import { useEffect, useState } from 'react'
import { map, shareReplay, type Observable } from 'rxjs'
import { useDocumentStore, useSchema, type DocumentStore, type Schema } from 'sanity'
import { pendingTranslations, type PendingDocument } from './pending-translations'

/*
 * The pending translations, kept current: every document of the schema's types, published and drafts
 * (`raw`), listened to so that an edit, a mark or a publish anywhere updates the overview and the
 * structure's count within a second. One listener, and one computation of the statuses, per Studio,
 * however many components show them (the structure item's badge, the overview): each would otherwise
 * fetch every document on every edit.
 */
const streams = new WeakMap<DocumentStore, Observable<PendingDocument[]>>()

function pendingOf(documentStore: DocumentStore, schema: Schema) {
  let stream = streams.get(documentStore)
  if (!stream) {
    const types = schema.getTypeNames().filter((name) => schema.get(name)?.type?.name === 'document')
    stream = documentStore
      .listenQuery(
        '*[_type in $types]',
        { types },
        { perspective: 'raw', throttleTime: 1000, apiVersion: '2025-02-19' },
      )
      .pipe(
        map((documents: Record<string, unknown>[]) => pendingTranslations(documents, schema)),
        shareReplay({ bufferSize: 1, refCount: true }),
      )
    streams.set(documentStore, stream)
  }
  return stream
}

export function usePendingTranslations(): { documents: PendingDocument[] | null; error: string | null } {
  const documentStore = useDocumentStore()
  const schema = useSchema()
  const [documents, setDocuments] = useState<PendingDocument[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const subscription = pendingOf(documentStore, schema).subscribe({
      next: setDocuments,
      error: (reason: Error) => setError(reason.message),
    })
    return () => subscription.unsubscribe()
  }, [documentStore, schema])

  return { documents, error }
}
