import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { HistoryStore, type HistoryLimits } from './history-store.ts'

export type SanityDocument = {
  _id: string
  _type: string
  _rev?: string
  _createdAt?: string
  _updatedAt?: string
  [key: string]: unknown
}

/** What one transaction did to one document: null before = created, null after = deleted. */
export type DocumentChange = { id: string; before: SanityDocument | null; after: SanityDocument | null }

export type CommittedTransaction = {
  id: string
  timestamp: string
  identity: string
  changes: DocumentChange[]
  /** The mutations as applied (the history serves them); absent from log lines written before they were kept. */
  mutations?: unknown[]
}

/**
 * One log line. `documents` is an object keyed by id, written with own properties only
 * (Object.fromEntries) and read back with Object.entries: an id such as `__proto__` is a key like
 * any other there, never the object's prototype.
 */
type LogLine = {
  id: string
  timestamp: string
  identity: string
  documents: Record<string, SanityDocument | null>
  mutations?: unknown[]
}

/**
 * The documents of one dataset, in memory, made durable by an append-only transaction log: each
 * transaction is one NDJSON line written and fsynced before the request is acknowledged, so an
 * acknowledged mutation survives kill -9 (and a power cut). At start the snapshot is read, the log
 * replayed (a torn last line, never acknowledged, is dropped), and both are compacted into a new
 * snapshot written atomically (temporary file + rename). The replayed transactions are first added to
 * the history (history-store.ts, its own file): compaction drops the log, never the history.
 */
export class DocumentStore {
  readonly documents = new Map<string, SanityDocument>()
  readonly history: HistoryStore
  private readonly folder: string | undefined
  private logFd: number | undefined
  private listeners = new Set<(transaction: CommittedTransaction) => void>()

  constructor(folder?: string, historyLimits?: HistoryLimits) {
    this.folder = folder
    this.history = new HistoryStore(folder && join(folder, 'history.ndjson'), historyLimits)
    if (!folder) return
    mkdirSync(folder, { recursive: true })
    const snapshot = join(folder, 'documents.ndjson')
    const log = join(folder, 'transactions.ndjson')
    if (existsSync(snapshot)) {
      for (const line of readFileSync(snapshot, 'utf8').split('\n')) {
        if (line.trim()) {
          const doc = JSON.parse(line) as SanityDocument
          this.documents.set(doc._id, doc)
        }
      }
    }
    const entries: LogLine[] = []
    for (const line of existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []) {
      if (!line.trim()) continue
      try {
        entries.push(JSON.parse(line) as LogLine)
      } catch {
        break // a line cut by a crash mid-write: its request was never answered
      }
    }
    const recorded = this.history.alreadyRecorded(entries)
    entries.forEach((entry, index) => {
      const documents = Object.entries(entry.documents)
      if (index >= recorded) {
        const changes = documents.map(([id, after]) => ({ id, before: this.documents.get(id) ?? null, after }))
        this.history.record({ ...entry, changes })
      }
      this.applyDocuments(documents)
    })
    this.compact()
  }

  /** True when the dataset has never been written (the server then imports the seed). */
  get isEmpty(): boolean {
    return this.documents.size === 0
  }

  get(id: string): SanityDocument | null {
    return this.documents.get(id) ?? null
  }

  all(): SanityDocument[] {
    return [...this.documents.values()]
  }

  /** Makes a transaction durable, then visible, then tells the listeners. */
  commit(transaction: CommittedTransaction): void {
    if (transaction.changes.length === 0) return
    const documents = new Map<string, SanityDocument | null>(
      transaction.changes.map((change) => [change.id, change.after]),
    )
    if (this.logFd !== undefined) {
      const line: LogLine = {
        id: transaction.id,
        timestamp: transaction.timestamp,
        identity: transaction.identity,
        documents: Object.fromEntries(documents),
        mutations: transaction.mutations,
      }
      writeSync(this.logFd, `${JSON.stringify(line)}\n`)
      fsyncSync(this.logFd)
    }
    this.history.record(transaction)
    this.applyDocuments(documents)
    for (const listener of this.listeners) listener(transaction)
  }

  subscribe(listener: (transaction: CommittedTransaction) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  close(): void {
    if (this.logFd !== undefined) closeSync(this.logFd)
    this.logFd = undefined
    this.listeners.clear()
  }

  private applyDocuments(documents: Iterable<[string, SanityDocument | null]>) {
    for (const [id, doc] of documents) {
      if (doc) this.documents.set(id, doc)
      else this.documents.delete(id)
    }
  }

  /**
   * The history is written before the snapshot: a start stopped in between replays the same log over the
   * same snapshot, and finds its transactions already recorded (HistoryStore.alreadyRecorded). After it,
   * the log replayed over a snapshot that already holds its changes would leave no "before" to record.
   */
  private compact() {
    if (!this.folder) return
    this.history.persist()
    const snapshot = join(this.folder, 'documents.ndjson')
    const temporary = `${snapshot}.tmp`
    const lines = [...this.documents.values()].map((doc) => JSON.stringify(doc)).join('\n')
    writeFileSync(temporary, lines ? `${lines}\n` : '')
    const fd = openSync(temporary, 'r+')
    fsyncSync(fd)
    closeSync(fd)
    renameSync(temporary, snapshot)
    const log = join(this.folder, 'transactions.ndjson')
    writeFileSync(log, '')
    this.logFd = openSync(log, 'a')
    appendFileSync(this.logFd, '')
  }
}
