import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '@plume/twins/free-port'
import { runningTwinVariables } from './running-twins.ts'

describe('runningTwinVariables: which local services answer', () => {
  const sockets = new Set<Socket>()
  let silentServer: Server | undefined
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => (silentServer ? silentServer.close(() => resolve()) : resolve()))
  })

  it('tells a port that takes connections and says nothing (a paused twin) from one nothing listens on', async () => {
    // A hosted Content Lake (a project id): only the local Supabase is looked for.
    const env = (port: number) => ({
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de',
      NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${port}`,
    })
    const silentPort = await freePort()
    silentServer = createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silentServer!.listen(silentPort, '127.0.0.1', resolve))
    const paused = await runningTwinVariables(env(silentPort))
    const expected = `the local Supabase (port ${silentPort}, NEXT_PUBLIC_SUPABASE_URL)`
    expect([paused.missing, paused.silent]).toEqual([[expected], [expected]])

    const closedPort = await freePort()
    const stopped = await runningTwinVariables(env(closedPort))
    expect([stopped.missing, stopped.silent]).toEqual([
      [`the local Supabase (port ${closedPort}, NEXT_PUBLIC_SUPABASE_URL)`],
      [],
    ])
  })
})
