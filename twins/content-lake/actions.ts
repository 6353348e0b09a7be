import type { SanityDocument } from './document-store.ts'
import { badRequest } from './content-lake-error.ts'
import { mutationError, type MutationInput, type QuerySelector, type Transaction } from './mutations.ts'

/*
 * Document Actions (https://www.sanity.io/docs/http-actions), the API the Studio commits edits and
 * publishes through. Each action is expressed as the mutations the Content Lake performs for it, in
 * one transaction with the request's other actions.
 */

type Action = Record<string, unknown> & { actionType?: unknown }

const str = (value: unknown): value is string => typeof value === 'string' && value.length > 0

/** Published copy of a draft: the draft's content under the published id, weak refs made strong. */
function publishedFrom(draft: SanityDocument, publishedId: string): SanityDocument {
  const copy = strengthenOnPublish(structuredClone(draft)) as SanityDocument
  copy._id = publishedId
  delete copy._rev
  delete copy._updatedAt
  return copy
}

/** References marked `_strengthenOnPublish` become strong references once published. */
function strengthenOnPublish(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strengthenOnPublish)
  if (!value || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(record)) out[key] = strengthenOnPublish(child)
  if (record._type === 'reference' && record._strengthenOnPublish) {
    delete out._strengthenOnPublish
    delete out._weak
  }
  return out
}

function expectDraftPair(action: Action, index: number): { draftId: string; publishedId: string } {
  const { draftId, publishedId } = action
  if (!str(publishedId) || publishedId.includes('.'))
    throw badRequest(`Action ${index}: "publishedId" must be a published document id`)
  if (!str(draftId) || draftId !== `drafts.${publishedId}`)
    throw badRequest(`Action ${index}: "draftId" must be "drafts.${publishedId}"`)
  return { draftId, publishedId }
}

/** Applies one action to the transaction. */
export function applyAction(transaction: Transaction, action: Action, index: number, selectByQuery: QuerySelector) {
  if (!action || typeof action !== 'object' || Array.isArray(action))
    throw badRequest(`Action ${index} is not an object`)
  const mutate = (mutation: MutationInput) => transaction.apply(mutation, selectByQuery)

  switch (action.actionType) {
    case 'sanity.action.document.create': {
      const attributes = action.attributes as SanityDocument | undefined
      const { publishedId } = action
      if (!attributes || typeof attributes !== 'object' || !str(publishedId))
        throw badRequest(`Action ${index}: create needs "publishedId" and "attributes"`)
      const id = attributes._id
      if (
        !str(id) ||
        (id !== `drafts.${publishedId}` && !(id.startsWith('versions.') && id.endsWith(`.${publishedId}`)))
      ) {
        throw badRequest(`Action ${index}: attributes._id must be the draft or a version of "${publishedId}"`)
      }
      if (transaction.get(id)) {
        if (action.ifExists === 'ignore') return
        throw mutationError(409, `Document by ID "${id}" already exists`, 'documentAlreadyExistsError', id, index)
      }
      const { _rev: _ignored, ...document } = attributes
      return mutate({ create: document })
    }
    case 'sanity.action.document.edit': {
      const { draftId, publishedId } = expectDraftPair(action, index)
      const patch = action.patch
      if (!patch || typeof patch !== 'object' || Array.isArray(patch))
        throw badRequest(`Action ${index}: edit needs a "patch"`)
      if (!transaction.get(draftId)) {
        // Editing a published document that has no draft starts the draft from it.
        const published = transaction.get(publishedId)
        if (!published)
          throw mutationError(
            404,
            `Cannot edit "${publishedId}": neither it nor its draft exists`,
            'documentNotFoundError',
            draftId,
            index,
          )
        const { _rev: _r, _updatedAt: _u, ...content } = published
        mutate({ create: { ...content, _id: draftId } })
      }
      return mutate({ patch: { ...(patch as Record<string, unknown>), id: draftId } })
    }
    case 'sanity.action.document.publish': {
      const { draftId, publishedId } = expectDraftPair(action, index)
      const draft = transaction.get(draftId)
      if (!draft)
        throw mutationError(
          409,
          `Cannot publish "${publishedId}": it has no draft`,
          'documentNotFoundError',
          draftId,
          index,
        )
      if (str(action.ifDraftRevisionId) && action.ifDraftRevisionId !== draft._rev) {
        throw mutationError(
          409,
          `The draft of "${publishedId}" changed since it was read (revision "${draft._rev}", expected "${action.ifDraftRevisionId}")`,
          'conflictError',
          draftId,
          index,
        )
      }
      const published = transaction.get(publishedId)
      if (str(action.ifPublishedRevisionId) && action.ifPublishedRevisionId !== published?._rev) {
        throw mutationError(
          409,
          `"${publishedId}" changed since it was read (revision "${published?._rev}", expected "${action.ifPublishedRevisionId}")`,
          'conflictError',
          publishedId,
          index,
        )
      }
      mutate({ createOrReplace: publishedFrom(draft, publishedId) })
      return mutate({ delete: { id: draftId } })
    }
    case 'sanity.action.document.unpublish': {
      const { draftId, publishedId } = expectDraftPair(action, index)
      const published = transaction.get(publishedId)
      if (!published)
        throw mutationError(
          409,
          `Cannot unpublish "${publishedId}": it is not published`,
          'documentNotFoundError',
          publishedId,
          index,
        )
      const { _rev: _r, _updatedAt: _u, ...content } = published
      mutate({ createIfNotExists: { ...content, _id: draftId } })
      return mutate({ delete: { id: publishedId } })
    }
    case 'sanity.action.document.delete': {
      const { publishedId } = action
      if (!str(publishedId) || publishedId.includes('.'))
        throw badRequest(`Action ${index}: "publishedId" must be a published document id`)
      const drafts = Array.isArray(action.includeDrafts) ? action.includeDrafts : []
      for (const id of drafts) {
        if (!str(id) || (id !== `drafts.${publishedId}` && !id.endsWith(`.${publishedId}`)))
          throw badRequest(`Action ${index}: "${String(id)}" is not a draft of "${publishedId}"`)
        mutate({ delete: { id } })
      }
      return mutate({ delete: { id: publishedId } })
    }
    case 'sanity.action.document.discard':
    case 'sanity.action.document.version.discard': {
      const id = action.actionType === 'sanity.action.document.discard' ? action.draftId : action.versionId
      if (!str(id) || !(id.startsWith('drafts.') || id.startsWith('versions.')))
        throw badRequest(`Action ${index}: only a draft or a version can be discarded`)
      if (!transaction.get(id))
        throw mutationError(409, `Cannot discard "${id}": it does not exist`, 'documentNotFoundError', id, index)
      return mutate({ delete: { id } })
    }
    case 'sanity.action.document.replaceDraft': {
      const { publishedId } = action
      const attributes = action.attributes as SanityDocument | undefined
      if (!str(publishedId) || !attributes || attributes._id !== `drafts.${publishedId}`)
        throw badRequest(`Action ${index}: replaceDraft needs "publishedId" and draft "attributes"`)
      const { _rev: _r, ...document } = attributes
      return mutate({ createOrReplace: document })
    }
    default:
      throw badRequest(
        `Action ${index}: "${String(action.actionType)}" is not supported by the local Content Lake`,
        'actionNotSupportedError',
      )
  }
}
