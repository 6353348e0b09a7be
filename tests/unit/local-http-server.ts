import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'

/**
 * Local stand-ins for a service, on loopback at a free port, closed after each test of the file that
 * calls this (at its top level). Resolves `listen(server)` with the server's URL on `host`.
 */
export function localServers() {
  const open: Server[] = []
  afterEach(async () => {
    for (const server of open.splice(0)) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
  return async function listen(server: Server, { scheme = 'http', host = '127.0.0.1' } = {}): Promise<string> {
    open.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `${scheme}://${host}:${(server.address() as AddressInfo).port}`
  }
}

/** Closes one of them before its test ends (a service that goes away). */
export async function closeNow(server: Server) {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}
