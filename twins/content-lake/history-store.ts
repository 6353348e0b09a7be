import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { applyPatch, type RawPatch } from 'mendoza'
import { documentEffects, isDeletePatch, withoutRev, type Json } from './mendoza-effects.ts'

/*
 * The dataset's history: every committed transaction, with its author, its mutations and, for each
 * document it touched, the mendoza effects that turn the document before into the one after and back
 * (mendoza-effects.ts) and the revision it had before. Any revision of a document is rebuilt from its
 * current state by applying the reverts of the transactions after it, newest first; a deleted
 * document's last revision is the revert of its deletion.
 *
 * On disk: `history.ndjson`, one line per transaction, appended (fsynced) at each start with the
 * transactions of the log the document store replays, before that log is compacted away
 * (document-store.ts), and rewritten whole (temporary file + rename) when retention dropped lines.
 * In memory each transaction is kept as its JSON line, parsed when a request needs its effects.
 */

/**
 * How long history is kept. Sanity's hosted plans keep it for a limited time that depends on the plan
 * (counted back from today); here 90 days, and never more than HISTORY_MAX_BYTES of lines, the oldest
 * dropped first. A document's current state is never dropped: only the revisions before it.
 */
export const HISTORY_RETENTION_MS = 90 * 24 * 60 * 60 * 1000
/** The bytes of history kept on disk and in memory (its JSON lines): 64 MB. */
export const HISTORY_MAX_BYTES = 64 * 1024 * 1024

const DAY_MS = 24 * 60 * 60 * 1000

export type HistoryLimits = { retentionMs?: number; maxBytes?: number; now?: () => number }

type Doc = Record<string, unknown>
/** What a transaction did, as the document store commits it (structurally its CommittedTransaction). */
export type RecordedTransaction = {
  id: string
  timestamp: string
  identity: string
  changes: { id: string; before: Doc | null; after: Doc | null }[]
  mutations?: unknown[]
}
export type StoredEffect = { previousRev: string | null; apply: RawPatch; revert: RawPatch }
/** One line of history.ndjson. `effects` is keyed by document id, in the order the transaction touched them. */
export type StoredTransaction = {
  id: string
  timestamp: string
  author: string
  mutations: unknown[]
  effects: Record<string, StoredEffect>
}
export type DocumentChangeKind = 'created' | 'updated' | 'deleted'
/** What a transaction did, without its effects: enough for the events, and read without parsing its line. */
export type TransactionSummary = {
  id: string
  timestamp: string
  author: string
  documents: Map<string, { change: DocumentChangeKind; previousRev: string | null }>
}
type Entry = {
  id: string
  timestamp: string
  time: number
  author: string
  documentIDs: string[]
  changes: DocumentChangeKind[]
  previousRevs: (string | null)[]
  line: string
  /** The line's bytes on disk, its newline included. */
  size: number
}

export class HistoryStore {
  private readonly file: string | undefined
  private readonly retentionMs: number
  private readonly maxBytes: number
  private readonly now: () => number
  private entries: Entry[] = []
  /** Sequence number of entries[0]: positions stay valid while the oldest entries are dropped. */
  private first = 0
  private bytes = 0
  private readonly byDocument = new Map<string, number[]>()
  private readonly byId = new Map<string, number>()
  /** Entries before this position are in the file; dropping one of them means rewriting it. */
  private persistedEnd = 0
  private droppedPersisted = false

  constructor(file?: string, limits: HistoryLimits = {}) {
    this.file = file
    this.retentionMs = limits.retentionMs ?? HISTORY_RETENTION_MS
    this.maxBytes = limits.maxBytes ?? HISTORY_MAX_BYTES
    this.now = limits.now ?? Date.now
    if (!file || !existsSync(file)) return
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue
      let stored: StoredTransaction
      try {
        stored = JSON.parse(line) as StoredTransaction
      } catch {
        // A line cut by a crash while it was appended: its transaction is still in the log, and the
        // file is rewritten whole at the next persist (appending after the cut would spoil the line).
        this.droppedPersisted = true
        continue
      }
      this.add(stored, line)
    }
    this.persistedEnd = this.end
    this.enforceLimits()
  }

  /** The position after the newest transaction. */
  get end(): number {
    return this.first + this.entries.length
  }

  get size(): number {
    return this.entries.length
  }

  /** Records a committed transaction: its effects are computed here, from each document before and after. */
  record(transaction: RecordedTransaction): void {
    // Own properties (Object.fromEntries), as JSON.parse reads them back: an id such as `__proto__` is a key.
    const effects: Record<string, StoredEffect> = Object.fromEntries(
      transaction.changes.map(({ id, before, after }) => [
        id,
        { previousRev: typeof before?._rev === 'string' ? before._rev : null, ...documentEffects(before, after) },
      ]),
    )
    const stored: StoredTransaction = {
      id: transaction.id,
      timestamp: transaction.timestamp,
      author: transaction.identity,
      // Log lines written before mutations were kept: the documents as the transaction left them.
      mutations:
        transaction.mutations ??
        transaction.changes.map(({ id, after }) => (after ? { createOrReplace: after } : { delete: { id } })),
      effects,
    }
    this.add(stored, JSON.stringify(stored))
    this.enforceLimits(DAY_MS)
  }

  /**
   * How many of the log's first transactions the history already holds: a start that stopped after
   * writing the history and before emptying the log replays them again, and they are not recorded twice.
   */
  alreadyRecorded(log: { id: string; timestamp: string }[]): number {
    const same = (entry: Entry, line: { id: string; timestamp: string }) =>
      entry.id === line.id && entry.timestamp === line.timestamp
    for (let count = Math.min(log.length, this.entries.length); count > 0; count--) {
      const start = this.entries.length - count
      let matched = 0 // most candidates fail on their first line: no quadratic work on an ordinary start
      while (matched < count && same(this.entries[start + matched], log[matched])) matched++
      if (matched === count) return count
    }
    return 0
  }

  /** Writes what the file lacks: appends the new lines, or rewrites it when retention dropped some (fsynced). */
  persist(): void {
    if (!this.file) return
    if (this.droppedPersisted) {
      const temporary = `${this.file}.tmp`
      writeFileSync(temporary, this.entries.map((entry) => `${entry.line}\n`).join(''))
      syncFile(temporary)
      renameSync(temporary, this.file)
    } else if (this.persistedEnd < this.end) {
      const fd = openSync(this.file, 'a')
      const start = Math.max(0, this.persistedEnd - this.first)
      writeSync(
        fd,
        this.entries
          .slice(start)
          .map((entry) => `${entry.line}\n`)
          .join(''),
      )
      fsyncSync(fd)
      closeSync(fd)
    }
    this.persistedEnd = this.end
    this.droppedPersisted = false
  }

  /** Position of a transaction, or undefined when it is unknown (never seen, or dropped by retention). */
  positionOf(transactionId: string): number | undefined {
    return this.byId.get(transactionId)
  }

  /** Position of the last transaction at or before a time (milliseconds); first - 1 when none. */
  positionAtTime(time: number): number {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      if (this.entries[index].time <= time) return this.first + index
    }
    return this.first - 1
  }

  /** Positions of the transactions touching any of the ids, oldest first. */
  touching(ids: Iterable<string>): number[] {
    const positions = new Set<number>()
    for (const id of ids) for (const position of this.byDocument.get(id) ?? []) positions.add(position)
    return [...positions].sort((a, b) => a - b)
  }

  /** The transaction at a position, read from its line. */
  transaction(position: number): StoredTransaction {
    return JSON.parse(this.entries[position - this.first].line) as StoredTransaction
  }

  timestampAt(position: number): string {
    return this.entries[position - this.first].timestamp
  }

  authorAt(position: number): string {
    return this.entries[position - this.first].author
  }

  summary(position: number): TransactionSummary {
    const { id, timestamp, author, documentIDs, changes, previousRevs } = this.entries[position - this.first]
    const documents = new Map(
      documentIDs.map((documentId, index) => [
        documentId,
        { change: changes[index], previousRev: previousRevs[index] },
      ]),
    )
    return { id, timestamp, author, documents }
  }

  /**
   * A document as it was once every transaction up to `position` (included) was committed: its
   * current state with the reverts of the later ones applied, newest first. Null: it did not exist.
   */
  documentAt(id: string, current: Doc | null, position: number): Doc | null {
    let state = withoutRev(current) as Json
    let rev = typeof current?._rev === 'string' ? current._rev : null
    const later = (this.byDocument.get(id) ?? []).filter((at) => at > position)
    for (const at of later.reverse()) {
      const effect = this.transaction(at).effects[id]
      state = applyPatch(state, effect.revert) as Json
      rev = effect.previousRev
    }
    return withRevision(state, rev)
  }

  /** The document as it is, or, deleted, as it was just before its deletion (null when history has no trace of it). */
  lastRevision(id: string, current: Doc | null): Doc | null {
    if (current) return current
    let state: Json = null
    let rev: string | null = null
    for (const at of [...(this.byDocument.get(id) ?? [])].reverse()) {
      const effect = this.transaction(at).effects[id]
      state = applyPatch(state, effect.revert) as Json
      rev = effect.previousRev
      if (state !== null) break
    }
    return withRevision(state, rev)
  }

  private add(stored: StoredTransaction, line: string) {
    const position = this.end
    const documentIDs = Object.keys(stored.effects)
    const effects = Object.values(stored.effects)
    this.entries.push({
      id: stored.id,
      timestamp: stored.timestamp,
      time: Date.parse(stored.timestamp),
      author: stored.author,
      documentIDs,
      changes: effects.map(({ apply, revert }) =>
        isDeletePatch(apply) ? 'deleted' : isDeletePatch(revert) ? 'created' : 'updated',
      ),
      previousRevs: effects.map((effect) => effect.previousRev),
      line,
      size: Buffer.byteLength(line) + 1,
    })
    this.bytes += this.entries[this.entries.length - 1].size
    this.byId.set(stored.id, position)
    for (const id of documentIDs) {
      const positions = this.byDocument.get(id)
      if (positions) positions.push(position)
      else this.byDocument.set(id, [position])
    }
  }

  /**
   * Drops the transactions older than the retention and, over the byte cap, the oldest down to 90% of
   * it. While the server runs (`slackMs`), only once the oldest is a day past the retention: dropping
   * shifts every list, so a batch now and then rather than a line at every commit.
   */
  private enforceLimits(slackMs = 0) {
    const oldest = this.now() - this.retentionMs
    const overAge = this.entries.length > 0 && !(this.entries[0].time >= oldest - slackMs)
    if (!overAge && this.bytes <= this.maxBytes) return
    const target = this.bytes > this.maxBytes ? this.maxBytes * 0.9 : Infinity
    let drop = 0
    let bytes = this.bytes
    // (an unreadable time is dropped too)
    while (drop < this.entries.length && (bytes > target || !(this.entries[drop].time >= oldest))) {
      bytes -= this.entries[drop].size
      drop++
    }
    if (drop === 0) return
    const dropped = new Map<string, number>()
    for (const entry of this.entries.slice(0, drop)) {
      // The oldest of all are the oldest of each of their documents: each list loses its first ones.
      for (const id of entry.documentIDs) dropped.set(id, (dropped.get(id) ?? 0) + 1)
      if (this.byId.get(entry.id) === this.first) this.byId.delete(entry.id)
      if (this.first < this.persistedEnd) this.droppedPersisted = true
      this.first++
    }
    for (const [id, count] of dropped) {
      const positions = this.byDocument.get(id) ?? []
      positions.splice(0, count)
      if (positions.length === 0) this.byDocument.delete(id)
    }
    this.entries = this.entries.slice(drop)
    this.bytes = bytes
  }
}

function withRevision(state: Json, rev: string | null): Doc | null {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) return null
  const { _id, _type, ...rest } = state
  return { _id, _type, ...(rev ? { _rev: rev } : {}), ...rest }
}

function syncFile(path: string) {
  const fd = openSync(path, 'r+')
  fsyncSync(fd)
  closeSync(fd)
}
