import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { keepRunning, runToEnd } from './supervisor.ts'

/*
 * The one supervisor of child processes: commands run to their end with their output and code, a kept
 * process is started again when it dies and given up on when it keeps dying, and a caller stopped by a
 * signal leaves no child behind.
 */
const dir = mkdtempSync(join(tmpdir(), 'supervisor-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`never happened: ${what}`)
}

describe('the supervisor', () => {
  it('runs a command to its end, with its exit code and, buffered, its output', async () => {
    const done = await runToEnd(process.execPath, ['-e', 'console.log("out"); console.error("err"); process.exit(3)'], {
      buffer: true,
    })
    expect(done.code).toBe(3)
    expect(done.output).toContain('out')
    expect(done.output).toContain('err')
  })

  it('starts a kept process again when it dies, and gives up when it dies too often', async () => {
    const script = join(dir, 'dies.mjs')
    writeFileSync(script, 'setTimeout(() => process.exit(1), 50)\n')
    let gaveUp = ''
    const pids = new Set<number>()
    const kept = keepRunning('dies', script, [], {
      quiet: true,
      pidDir: dir,
      maxRestarts: 2,
      onGiveUp: (message) => (gaveUp = message),
    })
    await until(() => {
      const pid = kept.pid()
      if (pid) pids.add(pid)
      return gaveUp !== ''
    }, 'gave up')
    expect(gaveUp).toMatch(/^dies stopped 3 times within 60 s \(last: exit 1\)/)
    expect(Number(readFileSync(join(dir, 'dies.pid'), 'utf8'))).toBe(kept.pid())
    expect(pids.size).toBeGreaterThan(1)
  })

  it('stops every child when the caller gets SIGTERM, then exits with 143', async () => {
    const supervisor = JSON.stringify(join(import.meta.dirname, 'supervisor.ts'))
    const caller = `import { keepRunning, startProcess } from ${supervisor}
const plain = startProcess(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { quiet: true })
const kept = keepRunning('idle', '-e', ['setInterval(() => {}, 1000)'], { quiet: true, onGiveUp: () => {} })
setTimeout(() => console.log(JSON.stringify([plain.pid, kept.pid()])), 300)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', caller], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const pids = await new Promise<number[]>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))),
    )
    expect(pids.every(alive)).toBe(true)
    const code = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await code).toBe(143)
    await until(() => !pids.some(alive), 'the children ended')
  })
})
