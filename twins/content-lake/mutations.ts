import { randomBytes, randomUUID } from 'node:crypto'
import { Mutation } from '@sanity/mutator'
import { ContentLakeError, badRequest } from './content-lake-error.ts'
import type { CommittedTransaction, DocumentChange, DocumentStore, SanityDocument } from './document-store.ts'

/*
 * Mutations as the Content Lake applies them (https://www.sanity.io/docs/http-mutations): a
 * transaction of create / createIfNotExists / createOrReplace / delete / patch, all or nothing.
 * Patch operations are applied by @sanity/mutator, the library the Studio itself uses to apply the
 * same patches to its local copy, one operation at a time in the order the HTTP API documents.
 */

export function mutationError(
  status: number,
  description: string,
  itemType: string,
  id: string | undefined,
  index: number,
) {
  return new ContentLakeError(
    status,
    {
      error: {
        description: `The mutation(s) failed: ${description}`,
        items: [{ error: { description, id, type: itemType }, index }],
        type: 'mutationError',
      },
    },
    description,
  )
}

/** Revision and transaction ids look like the Content Lake's: 22 random base-62 characters. */
export function newRevision(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = randomBytes(22)
  let id = ''
  for (const byte of bytes) id += alphabet[byte % 62]
  return id
}

/**
 * Document ids as Sanity allows them (https://www.sanity.io/docs/ids): a-zA-Z0-9._-, a path of
 * period-separated segments none of which is empty or starts with a dash; at most 128 characters.
 */
const ID_PATTERN = /^(?=.{1,128}$)[a-zA-Z0-9_][a-zA-Z0-9_-]*(?:\.[a-zA-Z0-9_][a-zA-Z0-9_-]*)*$/
const PATCH_ORDER = ['set', 'setIfMissing', 'unset', 'inc', 'dec', 'insert', 'diffMatchPatch'] as const
type PatchOperation = (typeof PATCH_ORDER)[number]

export type PatchBody = {
  id?: string
  query?: string
  params?: Record<string, unknown>
  ifRevisionID?: string
} & Partial<Record<PatchOperation, unknown>>
export type MutationInput = Record<string, unknown>
export type QuerySelector = (query: string, params: Record<string, unknown>) => string[]
export type Operation = 'create' | 'update' | 'delete' | 'none'

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function clone<T>(value: T): T {
  return structuredClone(value)
}

/**
 * Builds one transaction over the store: reads see the transaction's own earlier writes; nothing is
 * visible to others until `commit`. Every error is a ContentLakeError (a 4xx), never a crash.
 */
export class Transaction {
  readonly id: string
  readonly timestamp: string
  readonly identity: string
  readonly results: { id: string; operation: Operation }[] = []
  /** The mutations as applied, a created document under the id it got (the history serves them). */
  readonly mutations: MutationInput[] = []
  private readonly store: DocumentStore
  private readonly touched = new Map<string, SanityDocument | null>()
  private readonly originals = new Map<string, SanityDocument | null>()
  private index = 0

  constructor(store: DocumentStore, identity: string, transactionId?: string) {
    this.store = store
    this.identity = identity
    this.id =
      typeof transactionId === 'string' && /^[a-zA-Z0-9._-]{1,128}$/.test(transactionId) ? transactionId : newRevision()
    this.timestamp = new Date().toISOString()
  }

  get(id: string): SanityDocument | null {
    return this.touched.has(id) ? (this.touched.get(id) ?? null) : this.store.get(id)
  }

  /** Every document as this transaction currently sees it (for query-selected patches and deletes). */
  allDocuments(): SanityDocument[] {
    const out = new Map(this.store.documents)
    for (const [id, doc] of this.touched) {
      if (doc) out.set(id, doc)
      else out.delete(id)
    }
    return [...out.values()]
  }

  put(id: string, doc: SanityDocument | null, operation: Operation) {
    if (!this.originals.has(id)) this.originals.set(id, this.store.get(id))
    this.touched.set(id, doc)
    this.results.push({ id, operation })
  }

  /** Applies one HTTP mutation (`{ create: {...} }`, `{ patch: {...} }`, …). */
  apply(mutation: MutationInput, selectByQuery: QuerySelector) {
    const index = this.index++
    if (!isObject(mutation)) throw badRequest(`Mutation at index ${index} is not an object`)
    const kinds = Object.keys(mutation)
    if (kinds.length !== 1)
      throw badRequest(
        `Mutation at index ${index} must have exactly one of create, createIfNotExists, createOrReplace, delete, patch`,
      )
    const kind = kinds[0]
    const body = mutation[kind]
    if (!isObject(body)) throw badRequest(`Mutation at index ${index}: "${kind}" must be an object`)
    switch (kind) {
      case 'create':
      case 'createIfNotExists':
      case 'createOrReplace':
        this.createDocument(kind, body, index)
        this.mutations.push({ [kind]: { ...body, _id: this.results[this.results.length - 1].id } })
        return
      case 'delete':
      case 'patch':
        if (kind === 'delete') this.deleteDocuments(body, index, selectByQuery)
        else this.patchDocuments(body as PatchBody, index, selectByQuery)
        this.mutations.push({ [kind]: body })
        return
      default:
        throw badRequest(`Unknown mutation type "${kind}" at index ${index}`)
    }
  }

  private createDocument(
    kind: 'create' | 'createIfNotExists' | 'createOrReplace',
    body: Record<string, unknown>,
    index: number,
  ) {
    const doc = clone(body) as SanityDocument
    if (doc._id === undefined || doc._id === null) {
      if (kind !== 'create')
        throw mutationError(400, `${kind} requires a document _id`, 'validationError', undefined, index)
      doc._id = randomUUID()
    } else if (typeof doc._id === 'string' && doc._id.endsWith('.')) {
      doc._id = `${doc._id}${randomUUID()}` // "drafts." asks for a generated id under that path
    }
    validateDocument(doc, index)
    const existing = this.get(doc._id)
    if (existing && kind === 'create') {
      throw mutationError(
        409,
        `Document by ID "${doc._id}" already exists`,
        'documentAlreadyExistsError',
        doc._id,
        index,
      )
    }
    if (existing && kind === 'createIfNotExists') {
      this.results.push({ id: doc._id, operation: 'none' })
      return
    }
    const created = new Mutation({ mutations: [{ [kind]: doc }], timestamp: this.timestamp }).apply(null)
    if (!created) throw mutationError(400, 'The document could not be created', 'validationError', doc._id, index)
    const next = { ...(created as SanityDocument) }
    if (existing) next._createdAt = typeof body._createdAt === 'string' ? body._createdAt : existing._createdAt
    this.put(doc._id, next, existing ? 'update' : 'create')
  }

  private deleteDocuments(body: Record<string, unknown>, index: number, selectByQuery: QuerySelector) {
    const ids = this.selectIds(body, index, selectByQuery)
    for (const id of ids) {
      if (this.get(id)) this.put(id, null, 'delete')
      else this.results.push({ id, operation: 'none' })
    }
  }

  private patchDocuments(body: PatchBody, index: number, selectByQuery: QuerySelector) {
    const ids = this.selectIds(body, index, selectByQuery)
    const operations = Object.keys(body).filter((key) => !['id', 'query', 'params', 'ifRevisionID'].includes(key))
    const unknown = operations.filter((key) => !(PATCH_ORDER as readonly string[]).includes(key))
    if (unknown.length > 0) throw badRequest(`Unknown patch operation "${unknown[0]}" at index ${index}`)
    for (const id of ids) {
      const current = this.get(id)
      if (!current) {
        throw mutationError(404, `Cannot modify non-existent document "${id}"`, 'documentNotFoundError', id, index)
      }
      if (body.ifRevisionID !== undefined && body.ifRevisionID !== current._rev) {
        throw mutationError(
          409,
          `Document "${id}" has unexpected revision ID ("${current._rev}"), expected "${String(body.ifRevisionID)}"`,
          'conflictError',
          id,
          index,
        )
      }
      let doc: SanityDocument = current
      for (const operation of PATCH_ORDER) {
        if (body[operation] === undefined) continue
        doc = applyPatchOperation(doc, id, operation, body[operation], index)
      }
      if (doc._id !== id)
        throw mutationError(400, 'The _id of a document cannot be changed', 'validationError', id, index)
      if (typeof doc._type !== 'string' || doc._type === '')
        throw mutationError(400, 'The _type of a document cannot be removed', 'validationError', id, index)
      this.put(id, doc, 'update')
    }
  }

  private selectIds(
    body: { id?: unknown; query?: unknown; params?: unknown },
    index: number,
    selectByQuery: QuerySelector,
  ): string[] {
    if (typeof body.id === 'string') {
      if (!ID_PATTERN.test(body.id))
        throw mutationError(400, `Invalid document ID "${body.id}"`, 'validationError', body.id, index)
      return [body.id]
    }
    if (typeof body.query === 'string') {
      const params = isObject(body.params) ? body.params : {}
      return selectByQuery(body.query, params)
    }
    throw badRequest(`Mutation at index ${index} needs an "id" or a "query"`)
  }

  /** Stamps revision and times on every changed document and hands the transaction to the store. */
  commit(): CommittedTransaction {
    const changes: DocumentChange[] = []
    for (const [id, doc] of this.touched) {
      const before = this.originals.get(id) ?? null
      if (!doc && !before) continue
      let after: SanityDocument | null = null
      if (doc) {
        after = { ...doc, _rev: this.id, _updatedAt: this.timestamp }
        after._createdAt = before?._createdAt ?? (typeof doc._createdAt === 'string' ? doc._createdAt : this.timestamp)
      }
      changes.push({ id, before, after })
    }
    const transaction: CommittedTransaction = {
      id: this.id,
      timestamp: this.timestamp,
      identity: this.identity,
      changes,
      mutations: this.mutations,
    }
    this.store.commit(transaction)
    return transaction
  }

  /** The documents as committed (for returnDocuments), in result order. */
  documentFor(id: string): SanityDocument | null {
    return this.store.get(id)
  }
}

function validateDocument(doc: SanityDocument, index: number) {
  if (typeof doc._id !== 'string' || !ID_PATTERN.test(doc._id)) {
    throw mutationError(
      400,
      `Invalid document ID "${String(doc._id)}"`,
      'validationError',
      typeof doc._id === 'string' ? doc._id : undefined,
      index,
    )
  }
  if (typeof doc._type !== 'string' || doc._type.trim() === '') {
    throw mutationError(400, `Document "${doc._id}" has no _type`, 'validationError', doc._id, index)
  }
  if (doc._type.startsWith('system.') || doc._id.startsWith('_.')) {
    throw mutationError(
      403,
      `Documents of type "${doc._type}" and id "${doc._id}" are managed by the system`,
      'permissionDeniedError',
      doc._id,
      index,
    )
  }
}

function applyPatchOperation(
  doc: SanityDocument,
  id: string,
  operation: PatchOperation,
  value: unknown,
  index: number,
): SanityDocument {
  if (operation === 'unset' ? !Array.isArray(value) : !isObject(value)) {
    throw mutationError(400, `Patch operation "${operation}" has an invalid value`, 'validationError', id, index)
  }
  try {
    const result = new Mutation({ mutations: [{ patch: { id, [operation]: clone(value) } }] }).apply(clone(doc))
    if (!result) throw new Error('patch removed the document')
    return result as SanityDocument
  } catch (error) {
    throw mutationError(
      400,
      `Could not apply ${operation} to "${id}": ${error instanceof Error ? error.message : String(error)}`,
      'validationError',
      id,
      index,
    )
  }
}
