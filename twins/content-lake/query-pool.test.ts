import { afterEach, describe, expect, it } from 'vitest'
import { DocumentStore } from './document-store.ts'
import { QueryPool } from './query-pool.ts'
import type { QueryJob } from './query-worker.ts'

/*
 * The editor first, whoever else is asking (security review: 8 anonymous queries that ran to the time
 * limit kept the editor's trivial query waiting 40 s behind them). The pool is driven directly, so the
 * order in which work reaches it is the order it was asked in.
 */

/** Minutes of work for groq-js (n³ comparisons over a 1,000-item parameter): only the time limit ends it. */
const slow: QueryJob = {
  query: 'count($p[count($p[@ in $p]) > 0])',
  params: { p: Array.from({ length: 1000 }, (_, i) => i) },
  perspective: 'raw',
  authenticated: false,
}
const editorQuery: QueryJob = { query: '1 + 1', params: {}, perspective: 'raw', authenticated: true, identity: 'e' }

let pool: QueryPool | undefined
afterEach(() => pool?.close())

/** Runs a job and records whether it has settled (either way). */
function track(job: QueryJob) {
  const state = { settled: false, outcome: undefined as unknown }
  const done = pool!.run(job).then(
    (outcome) => (state.outcome = outcome.result),
    (error: Error) => (state.outcome = error.message),
  )
  void done.finally(() => (state.settled = true))
  return Object.assign(state, { done })
}

describe('the query pool serves work with a token first', () => {
  it("runs the editor's query on its reserved thread while anonymous slow queries hold and fill the shared one", async () => {
    pool = new QueryPool(new DocumentStore(), { size: 1, reserved: 1, timeoutMs: 3_000, context: ctx, log: () => {} })
    await pool.run({ ...slow, query: '0' }) // the shared thread is ready: the first slow query takes it at once
    const anonymous = [track(slow), track(slow), track(slow)]
    const editor = track(editorQuery)
    await editor.done
    expect(editor.outcome).toBe(2)
    expect(anonymous.map((job) => job.settled)).toEqual([false, false, false]) // all still running or waiting
  })

  it('takes the editor ahead of anonymous work already waiting, with no reserved thread', async () => {
    pool = new QueryPool(new DocumentStore(), { size: 1, reserved: 0, timeoutMs: 3_000, context: ctx, log: () => {} })
    await pool.run({ ...slow, query: '0' }) // the thread is ready: the first slow query takes it at once
    const first = track(slow)
    const second = track(slow)
    const editor = track(editorQuery)
    await editor.done
    expect(editor.outcome).toBe(2)
    expect(first.settled).toBe(true) // the thread was the first's until its time ran out
    expect(second.settled).toBe(false) // still waiting: the editor went ahead of it
  })

  it("stops a listener filter past its budget with the filter's own error, and serves the next work", async () => {
    pool = new QueryPool(new DocumentStore(), { size: 1, reserved: 0, timeoutMs: 5_000, context: ctx, log: () => {} })
    const filter = pool.filter(
      {
        query: `*[${slow.query} > 0]`,
        params: slow.params,
        authenticated: false,
        documents: [{ _id: 'a', _type: 'x' }],
      },
      200,
    )
    await expect(filter).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/listener's filter exceeded the time limit/),
    })
    const cheap = pool.filter(
      {
        query: '*[_type == "x"]',
        params: {},
        authenticated: false,
        documents: [
          { _id: 'a', _type: 'x' },
          { _id: 'b', _type: 'y' },
        ],
      },
      5_000,
    )
    expect(await cheap).toEqual([true, false])
  })
})

const ctx = { projectId: 'local', dataset: 'production' }
