import net from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listens on right now: `preferred` when it is free (the test
 *  command asks for the ports its last build inlined, to reuse that build), any other otherwise. */
export async function freePort(preferred) {
  if (preferred) {
    const port = await listenOnce(preferred).catch(() => null)
    if (port) return port
  }
  return listenOnce(0)
}

function listenOnce(port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** True when something already accepts connections on host:port. */
export function isPortTaken(port, host = '127.0.0.1') {
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
export async function waitForHttp(url, { timeoutMs = 60_000, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) })
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`)
}
