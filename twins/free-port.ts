import net from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listens on right now: `preferred` when it is free (the test
 *  command asks for the ports its last build inlined, to reuse that build), any other otherwise. */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred) {
    const port = await listenOnce(preferred).catch(() => null)
    if (port) return port
  }
  return listenOnce(0)
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** True when something already accepts connections on host:port. */
export function isPortTaken(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host })
    socket.setTimeout(1000)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Polls url until it answers (any HTTP status) or the deadline passes. */
export async function waitForHttp(url: string, { timeoutMs = 60_000, intervalMs = 250 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) })
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`)
}
