import { applyAction } from '../actions.ts'
import { badRequest } from '../content-lake-error.ts'
import { LOCAL_EDITOR } from '../content-lake-settings.ts'
import { readJson } from './exchange.ts'
import { Transaction, type MutationInput } from '../mutations.ts'
import { dataEndpoint, type Route } from './route.ts'

/** POST /data/mutate/<dataset>: mutations in one transaction (the editor's token only). */
export const dataMutate: Route = {
  matches: dataEndpoint('mutate', 'POST'),
  serve: async ({ request, url, segments, json }, lake) => {
    lake.requireDataset(segments[2])
    lake.access.requireEditor(request)
    const body = (await readJson(request)) as { mutations?: unknown; transactionId?: unknown } | null
    const mutations = body?.mutations
    if (!Array.isArray(mutations)) throw badRequest('The body must be {"mutations": [...]}')
    const dryRun = url.searchParams.get('dryRun') === 'true'
    const transaction = await lake.writer.mutate(
      mutations as MutationInput[],
      LOCAL_EDITOR.id,
      typeof body?.transactionId === 'string' ? body.transactionId : undefined,
      dryRun,
    )
    const returnDocuments = url.searchParams.get('returnDocuments') === 'true'
    const results = transaction.results.map(({ id, operation }) =>
      returnDocuments && operation !== 'delete'
        ? { id, operation, document: dryRun ? transaction.get(id) : lake.store.get(id) }
        : { id, operation },
    )
    json(200, {
      transactionId: transaction.id,
      results,
      ...(returnDocuments ? { documentIds: results.map((r) => r.id) } : {}),
    })
  },
}

/** POST /data/actions/<dataset>: the Studio's document actions (publish, discard…) in one transaction. */
export const dataActions: Route = {
  matches: dataEndpoint('actions', 'POST'),
  serve: async ({ request, segments, json }, lake) => {
    lake.requireDataset(segments[2])
    lake.access.requireEditor(request)
    const body = (await readJson(request)) as { actions?: unknown; transactionId?: unknown; dryRun?: unknown } | null
    const actions = body?.actions
    if (!Array.isArray(actions) || actions.length === 0)
      throw badRequest('The body must be {"actions": [...]} with at least one action')
    const transaction = new Transaction(
      lake.store,
      LOCAL_EDITOR.id,
      typeof body?.transactionId === 'string' ? body.transactionId : undefined,
    )
    actions.forEach((action, index) => applyAction(transaction, action, index, () => []))
    if (body?.dryRun !== true) transaction.commit()
    json(200, { transactionId: transaction.id })
  },
}
