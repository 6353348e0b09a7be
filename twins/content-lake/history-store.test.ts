import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DocumentStore } from './document-store.ts'
import type { HistoryLimits } from './history-store.ts'
import { Transaction } from './mutations.ts'

/*
 * The history's storage (history-store.ts, through the document store that feeds it): retention by
 * age and by size, and the starts that a crash cut short, which must neither lose a transaction nor
 * record one twice.
 */

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
const folder = () => {
  const path = mkdtempSync(join(tmpdir(), 'history-store-'))
  folders.push(path)
  return path
}
const DAY = 24 * 60 * 60 * 1000

/** Commits a patch (or the creation) of `page` setting its title; returns the transaction's id. */
function edit(store: DocumentStore, title: string): string {
  const transaction = new Transaction(store, 'editor')
  if (!store.get('page')) transaction.apply({ create: { _id: 'page', _type: 'page', title } }, () => [])
  else transaction.apply({ patch: { id: 'page', set: { title } } }, () => [])
  transaction.commit()
  return transaction.id
}

function titles(store: DocumentStore, ids: string[]) {
  return ids.map((id) => {
    const position = store.history.positionOf(id)
    return position === undefined ? undefined : store.history.documentAt('page', store.get('page'), position)?.title
  })
}

function reopen(path: string, limits?: HistoryLimits): DocumentStore {
  return new DocumentStore(path, limits)
}

describe('history retention', () => {
  it('drops transactions older than the retention at start, and rewrites the file without them', () => {
    const path = folder()
    let store = reopen(path)
    const ids = ['un', 'deux', 'trois'].map((title) => edit(store, title))
    store.close()
    store = reopen(path, { now: () => Date.now() + 89 * DAY })
    expect(titles(store, ids)).toEqual(['un', 'deux', 'trois'])
    store.close()
    store = reopen(path, { now: () => Date.now() + 91 * DAY })
    expect(store.history.size).toBe(0)
    expect(readFileSync(join(path, 'history.ndjson'), 'utf8')).toBe('')
    expect(store.get('page')?.title).toBe('trois') // the documents themselves are never dropped
    store.close()
  })

  it('keeps at most its bytes, the oldest dropped first, the revisions it keeps still right', () => {
    const store = new DocumentStore(undefined, { maxBytes: 2_000 })
    const ids = Array.from({ length: 40 }, (_, index) => edit(store, `titre ${index}`))
    expect(store.history.size).toBeGreaterThan(3)
    expect(store.history.size).toBeLessThan(40)
    const kept = ids.slice(-store.history.size)
    expect(titles(store, kept)).toEqual(kept.map((_, index) => `titre ${40 - kept.length + index}`))
    expect(titles(store, ids.slice(0, 1))).toEqual([undefined])
  })
})

describe('document ids', () => {
  it('keeps the history of a document named like an object property', () => {
    const store = new DocumentStore()
    const revisions = ['un', 'deux'].map((title) => {
      const transaction = new Transaction(store, 'editor')
      transaction.apply({ createOrReplace: { _id: '__proto__', _type: 'page', title } }, () => [])
      transaction.commit()
      return transaction.id
    })
    const { history } = store
    const at = (id: string) => history.documentAt('__proto__', store.get('__proto__'), history.positionOf(id) as number)
    expect(revisions.map((id) => at(id)?.title)).toEqual(['un', 'deux'])
    expect(Object.keys(history.transaction(history.positionOf(revisions[1]) as number).effects)).toEqual(['__proto__'])
  })
})

describe('a start cut short', () => {
  it('after the history was written, before the log was emptied: nothing is recorded twice', () => {
    const path = folder()
    let store = reopen(path)
    const ids = ['un', 'deux'].map((title) => edit(store, title))
    store.close()
    const snapshot = readFileSync(join(path, 'documents.ndjson'), 'utf8')
    const log = readFileSync(join(path, 'transactions.ndjson'), 'utf8')
    store = reopen(path) // history written, snapshot written, log emptied
    store.close()
    // The same start stopped before its snapshot and its log's truncation: both as they were.
    writeFileSync(join(path, 'documents.ndjson'), snapshot)
    writeFileSync(join(path, 'transactions.ndjson'), log)
    store = reopen(path)
    expect(store.history.size).toBe(2)
    expect(titles(store, ids)).toEqual(['un', 'deux'])
    store.close()
    // Stopped after its snapshot: the log replayed over a snapshot that already holds it.
    writeFileSync(join(path, 'transactions.ndjson'), log)
    store = reopen(path)
    expect(store.history.size).toBe(2)
    expect(titles(store, ids)).toEqual(['un', 'deux'])
    store.close()
  })

  it('while the history was appended: the cut line is rebuilt from the log, the file rewritten whole', () => {
    const path = folder()
    let store = reopen(path)
    const ids = ['un', 'deux', 'trois'].map((title) => edit(store, title))
    store.close()
    const log = readFileSync(join(path, 'transactions.ndjson'), 'utf8')
    store = reopen(path)
    store.close()
    // The third line half written, the log not yet emptied.
    const lines = readFileSync(join(path, 'history.ndjson'), 'utf8').trim().split('\n')
    writeFileSync(join(path, 'history.ndjson'), `${lines.slice(0, 2).join('\n')}\n${lines[2].slice(0, 40)}`)
    writeFileSync(join(path, 'transactions.ndjson'), log)
    store = reopen(path)
    expect(titles(store, ids)).toEqual(['un', 'deux', 'trois'])
    store.close()
    store = reopen(path)
    expect(store.history.size).toBe(3)
    expect(titles(store, ids)).toEqual(['un', 'deux', 'trois'])
    store.close()
  })

  it('keeps the transactions of a log written before the history was kept', () => {
    const path = folder()
    const line = (id: string, title: string) =>
      `${JSON.stringify({ id, timestamp: new Date().toISOString(), identity: 'editor', documents: { page: { _id: 'page', _type: 'page', _rev: id, title } } })}\n`
    appendFileSync(join(path, 'transactions.ndjson'), line('old-1', 'un') + line('old-2', 'deux'))
    const store = reopen(path)
    expect(titles(store, ['old-1', 'old-2'])).toEqual(['un', 'deux'])
    expect(store.history.transaction(store.history.positionOf('old-2') as number).mutations).toEqual([
      { createOrReplace: { _id: 'page', _type: 'page', _rev: 'old-2', title: 'deux' } },
    ])
    store.close()
  })
})
