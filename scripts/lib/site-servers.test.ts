import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildInProgress, lockBuild, runningSiteServers } from './site-servers.ts'

/* The record of what reads and writes a build folder, which `npm run build`, `npm start` and
 * `npm run serve` consult before touching it. */

const folder = mkdtempSync(path.join(tmpdir(), 'site-servers-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const MODULE = JSON.stringify(path.resolve('scripts/lib/site-servers.ts'))

/** A process that runs `code` (site-servers.ts imported as `sites`), says ready, and waits. */
async function startProcess(code: string) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      // The signal handler before « ready »: a busy machine may deliver the test's SIGTERM right after it.
      `import * as sites from ${MODULE}
       process.on('SIGTERM', () => process.exit(0))
       const folder = ${JSON.stringify(folder)}
       ${code}
       console.log('ready')
       setInterval(() => {}, 1000)`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await once(child.stdout, 'data')
  return child
}

async function kill(child: Awaited<ReturnType<typeof startProcess>>, signal: NodeJS.Signals) {
  child.kill(signal)
  await once(child, 'exit')
}

describe('the servers of a build folder', () => {
  it('names a live server of the folder (listening or not yet), not of another; forgets one killed without its exit hook', async () => {
    const server = await startProcess(`sites.registerSiteServer({ port: 3999, distDir: '.next-a' }, folder)`)
    try {
      expect(runningSiteServers('.next-a', folder)).toEqual([
        { pid: server.pid, started: expect.any(String), port: 3999, distDir: path.resolve('.next-a') },
      ])
      expect(runningSiteServers('.next-b', folder)).toEqual([])
    } finally {
      await kill(server, 'SIGKILL')
    }
    expect(readdirSync(folder)).toEqual([`${server.pid}.json`])
    expect(runningSiteServers('.next-a', folder)).toEqual([])
    expect(readdirSync(folder)).toEqual([])
  })

  it('a server that stops takes its record with it; a record whose pid now belongs to another process is not it', async () => {
    const server = await startProcess(`sites.registerSiteServer({ port: 3999, distDir: '.next-a' }, folder)`)
    const file = path.join(folder, `${server.pid}.json`)
    const record = JSON.parse(readFileSync(file, 'utf8'))
    // The same pid, started at another time: what a reboot leaves when the pid is given to another program.
    writeFileSync(file, JSON.stringify({ ...record, started: `${Number(record.started) - 1}` }))
    expect(runningSiteServers('.next-a', folder)).toEqual([])
    writeFileSync(file, JSON.stringify(record))
    await kill(server, 'SIGTERM')
    expect(readdirSync(folder)).toEqual([])
  })

  it('one build at a time: a live build holds the folder, a dead one does not', async () => {
    const build = await startProcess(`if (!sites.lockBuild('.next-a', folder).acquired) process.exit(3)`)
    expect(buildInProgress('.next-a', folder)).toMatchObject({ pid: build.pid })
    expect(lockBuild('.next-a', folder)).toMatchObject({ acquired: false, holder: { pid: build.pid } })
    expect(buildInProgress('.next-b', folder)).toBeNull()
    await kill(build, 'SIGKILL')
    const lock = lockBuild('.next-a', folder)
    expect(lock.acquired).toBe(true)
    if (lock.acquired) lock.release()
    expect(readdirSync(folder)).toEqual([])
  })
})
