import { useEffect, useState } from 'react'
import { useDocumentStore, useSchema } from 'sanity'
import { pendingTranslations, type PendingDocument } from './pending-translations'

/**
 * The pending translations, kept current: every document of the schema's types, published and drafts
 * (`raw`), listened to so that an edit, a mark or a publish anywhere updates the overview and the
 * structure's count within a second.
 */
export function usePendingTranslations(): { documents: PendingDocument[] | null; error: string | null } {
  const documentStore = useDocumentStore()
  const schema = useSchema()
  const [documents, setDocuments] = useState<PendingDocument[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const types = schema.getTypeNames().filter((name) => schema.get(name)?.type?.name === 'document')
    const subscription = documentStore
      .listenQuery(
        '*[_type in $types]',
        { types },
        { perspective: 'raw', throttleTime: 1000, apiVersion: '2025-02-19' },
      )
      .subscribe({
        next: (result: Record<string, unknown>[]) => setDocuments(pendingTranslations(result, schema)),
        error: (reason: Error) => setError(reason.message),
      })
    return () => subscription.unsubscribe()
  }, [documentStore, schema])

  return { documents, error }
}
