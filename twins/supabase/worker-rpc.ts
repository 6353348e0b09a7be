import { parentPort, Worker } from 'node:worker_threads'

/*
 * Request/reply over a worker thread, for the work that must not run on the server's only thread
 * (password hashing, the database engine). The worker posts `ready` once it is set up, then one
 * reply per request; errors travel as their message and plain fields (a Postgres error keeps its
 * code, detail, hint…). A worker that dies fails every call still waiting on it. Between replies the
 * worker may post events for the server's log (the database's warnings).
 */

type SerializedError = { message: string; fields: Record<string, string | number | boolean | null> }
type Reply<T> = { id: number; value: T } | { id: number; error: SerializedError }
type Ready<I> = { ready: I } | { startupError: SerializedError }
type WorkerEvent = { event: Record<string, unknown> }

function serializeError(error: unknown): SerializedError {
  const fields: SerializedError['fields'] = {}
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
        fields[key] = value as string | number | boolean | null
    }
  }
  return { message: error instanceof Error ? error.message : String(error), fields }
}

function deserializeError(error: SerializedError): Error {
  return Object.assign(new Error(error.message), error.fields)
}

export type WorkerClient<Request, Response, Info> = {
  /** What the worker reported once ready. */
  info: Info
  call: (request: Request) => Promise<Response>
  /** Calls sent and not answered yet. */
  pending: () => number
  /** False once the worker has exited (terminated, crashed). */
  alive: () => boolean
  terminate: () => Promise<void>
}

/** Starts `file` as a worker thread and resolves once it is ready (rejects if its setup failed). */
export async function startWorker<Request, Response, Info>(
  file: URL,
  workerData: unknown,
  onEvent: (event: Record<string, unknown>) => void = () => {},
): Promise<WorkerClient<Request, Response, Info>> {
  const worker = new Worker(file, { workerData })
  const waiting = new Map<number, { resolve: (value: Response) => void; reject: (error: Error) => void }>()
  let nextId = 0
  let exited = false
  let started: (message: Ready<Info>) => void = () => {}

  worker.on('message', (message: Reply<Response> | Ready<Info> | WorkerEvent) => {
    if ('event' in message) return onEvent(message.event)
    if (!('id' in message)) return started(message)
    const entry = waiting.get(message.id)
    if (!entry) return
    waiting.delete(message.id)
    if ('error' in message) entry.reject(deserializeError(message.error))
    else entry.resolve(message.value)
  })
  const info = await new Promise<Info>((resolve, reject) => {
    started = (message) =>
      'ready' in message ? resolve(message.ready) : reject(deserializeError(message.startupError))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`worker ${file.pathname} exited during startup (code ${code})`)))
  })
  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error)
    waiting.clear()
  }
  worker.on('error', (error) => failAll(error))
  worker.on('exit', (code) => {
    exited = true
    failAll(new Error(`worker ${file.pathname} exited (code ${code})`))
  })

  return {
    info,
    call(request: Request) {
      if (exited) return Promise.reject(new Error(`worker ${file.pathname} is not running`))
      const id = ++nextId
      return new Promise<Response>((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        worker.postMessage({ id, request })
      })
    },
    pending: () => waiting.size,
    alive: () => !exited,
    async terminate() {
      if (!exited) await worker.terminate()
    },
  }
}

/** The worker's side: sets up, says ready, then answers each request in turn; `emit` posts an event. */
export async function serveRequests<Request, Response, Info>(
  setup: (
    emit: (event: Record<string, unknown>) => void,
  ) => Promise<{ info: Info; handle: (request: Request) => Promise<Response> }>,
) {
  const port = parentPort
  if (!port) throw new Error('serveRequests must run in a worker thread')
  let handle: (request: Request) => Promise<Response>
  try {
    const ready = await setup((event) => port.postMessage({ event } satisfies WorkerEvent))
    handle = ready.handle
    port.postMessage({ ready: ready.info })
  } catch (error) {
    port.postMessage({ startupError: serializeError(error) })
    return
  }
  port.on('message', async ({ id, request }: { id: number; request: Request }) => {
    try {
      port.postMessage({ id, value: await handle(request) })
    } catch (error) {
      port.postMessage({ id, error: serializeError(error) })
    }
  })
}
