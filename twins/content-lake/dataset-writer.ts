import { describeUpload, type AssetContext, type AssetFiles, type AssetKind } from './assets.ts'
import type { DocumentStore, SanityDocument } from './document-store.ts'
import { analyseImage } from './image-metadata.ts'
import { Transaction, type MutationInput } from './mutations.ts'
import type { QueryPool } from './query-pool.ts'
import { readSeed, withAssetReferences } from './seed.ts'

/*
 * Every write to the dataset goes through here: mutations (with query-selected ids resolved first),
 * asset uploads, and the seed imported on a first start.
 */
export class DatasetWriter {
  private readonly store: DocumentStore
  private readonly files: AssetFiles
  private readonly queries: QueryPool
  private readonly assetContext: () => AssetContext

  constructor(store: DocumentStore, files: AssetFiles, queries: QueryPool, assetContext: () => AssetContext) {
    this.store = store
    this.files = files
    this.queries = queries
    this.assetContext = assetContext
  }

  /** Ids a query-selected patch or delete applies to, as the dataset stands (raw: every document). */
  private async queryIds(query: string, params: Record<string, unknown>): Promise<string[]> {
    const { result } = await this.queries.run({ query, params, perspective: 'raw', authenticated: true })
    const list = Array.isArray(result) ? result : result ? [result] : []
    return list
      .map((item) => (item && typeof item === 'object' ? (item as { _id?: unknown })._id : undefined))
      .filter((id): id is string => typeof id === 'string')
  }

  /**
   * Runs mutations in one transaction. Query-selected ids are resolved first (groq-js is
   * asynchronous, the transaction is not), against the dataset as it stands before the transaction.
   */
  async mutate(
    mutations: MutationInput[],
    identity: string,
    transactionId: string | undefined,
    dryRun: boolean,
  ): Promise<Transaction> {
    const transaction = new Transaction(this.store, identity, transactionId)
    const resolved = new Map<string, string[]>()
    for (const mutation of mutations) {
      const body =
        mutation && typeof mutation === 'object'
          ? (Object.values(mutation)[0] as Record<string, unknown> | undefined)
          : undefined
      if (body && typeof body === 'object' && typeof body.query === 'string' && body.id === undefined) {
        const params = body.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : {}
        resolved.set(JSON.stringify([body.query, params]), await this.queryIds(body.query, params))
      }
    }
    const select = (query: string, params: Record<string, unknown>) =>
      resolved.get(JSON.stringify([query, params])) ?? []
    for (const mutation of mutations) transaction.apply(mutation, select)
    if (!dryRun) transaction.commit()
    return transaction
  }

  /** Stores an upload's bytes, then its asset document; the same bytes twice give the one asset. */
  async ingestAsset(
    kind: AssetKind,
    bytes: Buffer,
    filename: string | null,
    contentType: string | null,
    identity: string,
  ): Promise<SanityDocument> {
    const { document, storedName } = describeUpload(kind, bytes, this.assetContext(), { filename, contentType })
    const existing = this.store.get(document._id)
    if (existing) return existing
    // The lqip, palette and BlurHash the hosted pipeline records (image-metadata.ts), read before
    // anything is written; an image sharp cannot read keeps the dimensions alone.
    const analysis = kind === 'images' ? await analyseImage(bytes) : null
    if (analysis) Object.assign(document.metadata as Record<string, unknown>, analysis)
    const again = this.store.get(document._id)
    if (again) return again
    this.files.write(storedName, bytes)
    const transaction = new Transaction(this.store, identity)
    // createIfNotExists: two uploads of the same bytes at once end with the one asset, not a 409.
    transaction.apply({ createIfNotExists: document }, () => [])
    transaction.commit()
    return this.store.get(document._id) as SanityDocument
  }

  /** First start: import the seed; later starts: keep asset URLs pointing at this server's port. */
  async prepare(seedDir: string | undefined, log: (entry: Record<string, unknown>) => void): Promise<void> {
    if (this.store.isEmpty && seedDir) {
      const seed = readSeed(seedDir)
      const assetIds = new Map<string, string>()
      for (const upload of seed.uploads)
        assetIds.set(upload.file, (await this.ingestAsset('images', upload.bytes, upload.file, null, 'system'))._id)
      const transaction = new Transaction(this.store, 'system')
      for (const doc of seed.documents)
        transaction.apply({ createOrReplace: withAssetReferences(doc, assetIds) }, () => [])
      transaction.commit()
      log({ event: 'seeded', documents: seed.documents.length, assets: seed.uploads.length })
    }
    const { publicUrl } = this.assetContext()
    const moved = this.store
      .all()
      .filter(
        (doc) => typeof doc.url === 'string' && typeof doc.path === 'string' && doc.url !== `${publicUrl}/${doc.path}`,
      )
    if (moved.length > 0) {
      const transaction = new Transaction(this.store, 'system')
      for (const doc of moved)
        transaction.apply({ patch: { id: doc._id, set: { url: `${publicUrl}/${doc.path as string}` } } }, () => [])
      transaction.commit()
    }
  }
}
