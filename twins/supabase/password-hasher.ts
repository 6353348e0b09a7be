import { availableParallelism } from 'node:os'
import type { HashRequest } from './password-hash-worker.ts'
import { startWorker, type WorkerClient } from './worker-rpc.ts'

/*
 * bcrypt off the request thread: a few worker threads hash and compare passwords while the server
 * keeps answering everything else. Hashing is bounded: each worker does one at a time, and past
 * `maxQueued` waiting calls the hasher refuses at once (HasherBusyError) instead of building an
 * ever longer queue of ~0.1 s jobs — the caller answers 429.
 */

export class HasherBusyError extends Error {
  constructor() {
    super('Too many password checks in progress')
  }
}

export type PasswordHasherOptions = { workers?: number; maxQueued?: number }

/** One core stays for the server and its database engine; at most 4 hashing threads. */
const defaultWorkers = () => Math.max(1, Math.min(4, availableParallelism() - 1))

export function createPasswordHasher({ workers = defaultWorkers(), maxQueued = 32 }: PasswordHasherOptions = {}) {
  type HashWorker = WorkerClient<HashRequest, string | boolean, null>
  // Started on the first password a server checks: most servers a test starts never check one.
  let pool: Promise<HashWorker[]> | null = null
  let closed = false
  async function startPool(): Promise<HashWorker[]> {
    const starts = await Promise.allSettled(
      Array.from({ length: workers }, () =>
        startWorker<HashRequest, string | boolean, null>(new URL('./password-hash-worker.ts', import.meta.url), null),
      ),
    )
    const threads = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []))
    const failed = starts.find((start) => start.status === 'rejected')
    if (!failed) return threads
    // None is left running when one could not start; the next call tries again.
    await Promise.all(threads.map((worker) => worker.terminate()))
    pool = null
    throw failed.reason
  }

  async function run(request: HashRequest): Promise<string | boolean> {
    // A sign-in still arriving while the server closes starts no thread that nothing would end.
    if (closed) throw new Error('The password hasher is closed')
    const threads = await (pool ??= startPool())
    const busy = threads.reduce((sum, worker) => sum + worker.pending(), 0)
    if (busy >= threads.length + maxQueued) throw new HasherBusyError()
    const idlest = threads.reduce((best, worker) => (worker.pending() < best.pending() ? worker : best))
    return idlest.call(request)
  }

  return {
    hash: async (password: string) => (await run({ op: 'hash', password })) as string,
    /** False for a null hash too, after the same work as a real comparison (no timing oracle). */
    compare: async (password: string, hash: string | null) => (await run({ op: 'compare', password, hash })) as boolean,
    close: async () => {
      closed = true
      const threads = await pool?.catch(() => [])
      await Promise.all((threads ?? []).map((worker) => worker.terminate()))
    },
  }
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>
