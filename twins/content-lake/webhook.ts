import { encodeSignatureHeader } from '@sanity/webhook'
import type { CommittedTransaction, DocumentStore } from './document-store.ts'

/*
 * A GROQ-powered webhook as sanity.io/manage configures it for this site (docs/deploy.md: trigger on
 * create/update/delete, projection `{_type}`, a secret): every change to a published document — a
 * publish, an unpublish, a delete, or a mutation sent straight to the API — is POSTed to the site's
 * /api/revalidate, signed with the scheme next-sanity/webhook checks. Drafts never fire it. Deliveries
 * are retried with backoff while the site is down or answers 5xx, as Sanity retries failed ones.
 */

export type WebhookOptions = {
  url: string
  secret: string
  projectId: string
  dataset: string
  log?: (entry: Record<string, unknown>) => void
  /** Attempts per delivery (first try included). */
  attempts?: number
}

const isPublishedId = (id: string) => !id.includes('.')

export function startRevalidateWebhook(
  store: DocumentStore,
  options: WebhookOptions,
): { idle: () => Promise<void>; stop: () => void } {
  const attempts = options.attempts ?? 6
  let stopped = false
  const pending = new Set<Promise<void>>()

  async function deliver(
    transaction: CommittedTransaction,
    documentId: string,
    type: string,
    operation: 'create' | 'update' | 'delete',
  ) {
    const payload = JSON.stringify({ _type: type })
    const started = performance.now()
    for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
      let failure: string
      try {
        const signature = await encodeSignatureHeader(payload, Date.now(), options.secret)
        const response = await fetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'sanity-webhook-signature': signature,
            'sanity-operation': operation,
            'sanity-document-id': documentId,
            'sanity-project-id': options.projectId,
            'sanity-dataset': options.dataset,
            'sanity-transaction-id': transaction.id,
            'sanity-transaction-time': transaction.timestamp,
            'idempotency-key': `${transaction.id}#${documentId}`,
            'user-agent': 'Sanity.io webhook delivery (local Content Lake)',
          },
          body: payload,
          signal: AbortSignal.timeout(10_000),
        })
        if (response.status < 500) {
          options.log?.({
            event: 'webhook',
            status: response.status,
            documentId,
            type,
            operation,
            attempt,
            ms: Math.round(performance.now() - started),
          })
          return
        }
        failure = `HTTP ${response.status}`
      } catch (error) {
        // the site is not up yet, or busy: retry below
        failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      }
      options.log?.({
        event: 'webhook-retry',
        documentId,
        attempt,
        failure,
        ms: Math.round(performance.now() - started),
      })
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** (attempt - 1), 10_000)).unref())
    }
    if (!stopped) options.log?.({ event: 'webhook-failed', documentId, type, operation, url: options.url })
  }

  const unsubscribe = store.subscribe((transaction) => {
    for (const change of transaction.changes) {
      if (!isPublishedId(change.id)) continue
      const doc = change.after ?? change.before
      if (!doc) continue
      const operation = !change.before ? 'create' : !change.after ? 'delete' : 'update'
      const delivery = deliver(transaction, change.id, doc._type, operation).finally(() => pending.delete(delivery))
      pending.add(delivery)
    }
  })

  return {
    idle: async () => {
      while (pending.size > 0) await Promise.all([...pending])
    },
    stop: () => {
      stopped = true
      unsubscribe()
    },
  }
}
