import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runningSiteServers } from './site-servers.ts'

/* The record of the servers serving a build folder, which `npm run build` reads before replacing it. */

const folder = mkdtempSync(path.join(tmpdir(), 'site-servers-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** A process that listens on a free loopback port and records itself as serving `distDir`. */
async function startServer(distDir: string) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import http from 'node:http'
       import { registerSiteServer } from ${JSON.stringify(path.resolve('scripts/lib/site-servers.ts'))}
       const server = http.createServer().listen(0, '127.0.0.1', () => {
         registerSiteServer({ port: server.address().port, distDir: ${JSON.stringify(distDir)} }, ${JSON.stringify(folder)})
         console.log('ready')
       })
       process.on('SIGTERM', () => process.exit(0))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await once(child.stdout, 'data')
  return child
}

describe('the servers of a build folder', () => {
  it('names a live server of the folder (not of another), and forgets one killed without its exit hook', async () => {
    const server = await startServer('.next-a')
    try {
      expect(await runningSiteServers('.next-a', folder)).toEqual([
        { pid: server.pid, port: expect.any(Number), distDir: path.resolve('.next-a') },
      ])
      expect(await runningSiteServers('.next-b', folder)).toEqual([])
    } finally {
      server.kill('SIGKILL')
      await once(server, 'exit')
    }
    expect(readdirSync(folder)).toEqual([`${server.pid}.json`])
    expect(await runningSiteServers('.next-a', folder)).toEqual([])
    expect(readdirSync(folder)).toEqual([])
  })

  it('a server that stops takes its record with it', async () => {
    const server = await startServer('.next-a')
    expect(readdirSync(folder)).toEqual([`${server.pid}.json`])
    server.kill('SIGTERM')
    await once(server, 'exit')
    expect(readdirSync(folder)).toEqual([])
  })
})
