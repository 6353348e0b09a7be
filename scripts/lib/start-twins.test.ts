import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '@plume/twins/defaults'
import { freePort, isPortTaken } from '@plume/twins/free-port'
import { startTwins, SUPABASE_DIR, type RunningTwins } from './start-twins.ts'

/*
 * startTwins as the scripts use it: a twin killed -9 is started again, one that keeps dying stops
 * everything, and nothing outlives the caller, not even when the caller itself is killed -9.
 */
const seedDir = join(process.cwd(), 'studio', 'seed')
const pidDir = mkdtempSync(join(tmpdir(), 'twins-pids-'))
const started: RunningTwins[] = []
afterAll(async () => {
  await Promise.all(started.map((backends) => backends.stop()))
  rmSync(pidDir, { recursive: true, force: true })
})

/** Polls `check` until it holds; the ceiling (2 min) only catches hangs: a busy 2-core machine is slow. */
async function until(check: () => Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`never happened: ${what}`)
}
/** Runs one of the project's scripts to its end: its exit code and what it printed. */
function runScript(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    child.on('exit', (code) => resolve({ code, output }))
  })
}
const pinged = async (url: string) => (await fetch(`${url}/v1/ping`).catch(() => null))?.ok ?? false

describe('the twins, kept running by the supervisor', () => {
  it('starts the Content Lake, starts it again after kill -9 (new pid file), and stop() frees its port', async () => {
    const port = await freePort()
    const backends = await startTwins({ contentLake: { port, seedDir, webhook: false }, pidDir, quiet: true })
    started.push(backends)
    expect(await pinged(backends.contentLake!.url)).toBe(true)
    const first = Number(readFileSync(join(pidDir, 'content-lake.pid'), 'utf8'))
    expect(first).toBe(backends.contentLake!.pid())
    process.kill(first, 'SIGKILL')
    await until(
      async () => backends.contentLake!.pid() !== first && (await pinged(backends.contentLake!.url)),
      'the Content Lake answers again',
    )
    expect(Number(readFileSync(join(pidDir, 'content-lake.pid'), 'utf8'))).toBe(backends.contentLake!.pid())
    // A second start on the same port reuses it only when it keeps the same data (here: memory).
    const again = await startTwins({ contentLake: { port, seedDir }, reuseRunning: 'same-data', quiet: true })
    expect(again.contentLake!.reused).toBe(true)
    await expect(
      startTwins({ contentLake: { port, seedDir, dataDir: pidDir }, reuseRunning: 'same-data', quiet: true }),
    ).rejects.toThrow(
      /^Port \d+ is used by the local Content Lake of another folder \(pid \d+, its data: in memory; this folder's: \//,
    )
    // The build reads whichever Content Lake the configuration points at.
    const reader = await startTwins({
      contentLake: { port, seedDir, dataDir: pidDir },
      reuseRunning: 'any-data',
      quiet: true,
    })
    expect(reader.contentLake!.reused).toBe(true)
    await backends.stop()
    expect(await isPortTaken(port)).toBe(false)
  })

  it('refuses a port held by something else, and stops everything when a twin keeps dying', async () => {
    const port = await freePort()
    let gaveUp = ''
    const backends = await startTwins({
      contentLake: { port, seedDir, webhook: false },
      quiet: true,
      maxRestarts: 1,
      onGiveUp: (message) => (gaveUp = message),
    })
    started.push(backends)
    await expect(startTwins({ contentLake: { port, seedDir }, quiet: true })).rejects.toThrow(
      `Port ${port} (the local Content Lake) is already in use`,
    )
    process.kill(backends.contentLake!.pid()!, 'SIGKILL')
    await until(
      async () => backends.contentLake!.pid() !== undefined && (await pinged(backends.contentLake!.url)),
      'restarted once',
    )
    process.kill(backends.contentLake!.pid()!, 'SIGKILL')
    await until(async () => gaveUp !== '', 'gave up')
    expect(gaveUp).toMatch(/^content-lake stopped 2 times within 60 s/)
    expect(await isPortTaken(port)).toBe(false)
  })

  it('leaves no twin behind when the caller is killed -9', async () => {
    const port = await freePort()
    const script = `import { startTwins } from ${JSON.stringify(join(import.meta.dirname, 'start-twins.ts'))}
await startTwins({ contentLake: { port: ${port}, seedDir: ${JSON.stringify(seedDir)}, webhook: false }, quiet: true })
console.log('ready')`
    const caller = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await new Promise<void>((resolve, reject) => {
      caller.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve())
      caller.on('exit', (code) => reject(new Error(`the caller exited (${code}) before the twin was ready`)))
    })
    expect(await isPortTaken(port)).toBe(true)
    caller.kill('SIGKILL')
    await until(async () => !(await isPortTaken(port)), 'the orphaned twin ended itself')
  })

  it('starts the Supabase twin with its mail viewer, where the database\u2019s notification arrives; the scripts refuse a twin not this folder\u2019s', async () => {
    const [port, viewerPort, smtpPort] = [await freePort(), await freePort(), await freePort()]
    // Their logs, for the failure message: why a notification never came is told there.
    const logs = { supabase: join(pidDir, 'supabase.log'), mailViewer: join(pidDir, 'mail-viewer.log') }
    const backends = await startTwins({
      supabase: { port, supabaseDir: SUPABASE_DIR, logFile: logs.supabase },
      mailViewer: { port: viewerPort, smtpPort, logFile: logs.mailViewer },
      reuseRunning: 'same-data',
      quiet: true,
    })
    started.push(backends)
    expect(backends.mailViewer).toMatchObject({ url: `http://127.0.0.1:${viewerPort}`, reused: false })
    const keys = {
      apikey: LOCAL_ANON_KEY,
      Authorization: `Bearer ${LOCAL_ANON_KEY}`,
      'Content-Type': 'application/json',
    }
    const id = randomUUID()
    const email = `viewer-${id}@example.fr`
    const stored = await fetch(`http://127.0.0.1:${port}/rest/v1/contact_submissions`, {
      method: 'POST',
      headers: keys,
      body: JSON.stringify({ id, name: 'Camille Martin', email, message: 'Bonjour, un message pour le test.' }),
    })
    expect(stored.status).toBe(201)
    // The database asks for the notification (its insert webhook, through pg_net): no client calls.
    const aboutThis = async () =>
      ((await (await fetch(`${backends.mailViewer!.url}/api/email`)).json()) as { text: string }[]).filter((mail) =>
        mail.text.includes(email),
      ).length
    await until(async () => (await aboutThis()) > 0, 'the notification reaches the mail viewer').catch(
      async (error) => {
        // Why not, as the database recorded it (a refused or timed-out delivery says so here).
        const row = await fetch(
          `http://127.0.0.1:${port}/rest/v1/contact_submissions?id=eq.${id}&select=notification_status,notification_error,notification_attempts`,
          { headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` } },
        )
        const tail = (file: string) => readFileSync(file, 'utf8').split('\n').slice(-30).join('\n')
        throw new Error(
          `${(error as Error).message}; the message's notification: ${await row.text()}\n` +
            `Supabase twin's log:\n${tail(logs.supabase)}\nmail viewer's log:\n${tail(logs.mailViewer)}`,
        )
      },
    )
    expect(await aboutThis()).toBe(1)
    // This twin keeps its data in memory, not this folder's: the scripts that change a database refuse it.
    for (const script of [
      ['scripts/admin-create.ts', '--email', 'intruder@example.fr'],
      ['scripts/purge-messages.ts'],
    ]) {
      const run = await runScript(script, { NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${port}` })
      expect(run.code, run.output).toBe(1)
      expect(run.output).toMatch(/^The local Supabase on port \d+ is another folder's \(pid \d+, its data: in memory;/)
    }
    const users = await fetch(`http://127.0.0.1:${port}/auth/v1/admin/users`, {
      headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
    })
    expect(((await users.json()) as { users: unknown[] }).users).toEqual([])
    // npm start twice: both are used as they are.
    const again = await startTwins({
      supabase: { port, supabaseDir: SUPABASE_DIR },
      mailViewer: { port: viewerPort, smtpPort },
      reuseRunning: 'same-data',
      quiet: true,
    })
    expect([again.supabase!.reused, again.mailViewer!.reused]).toEqual([true, true])
    await backends.stop()
    expect(await isPortTaken(viewerPort)).toBe(false)
  })
})
