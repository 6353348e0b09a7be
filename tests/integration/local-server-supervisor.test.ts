import { spawn, type ChildProcess } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { supervise } from '@/scripts/lib/supervise.mjs'

/*
 * `npm start`'s supervisor (issue #20: when the Content Lake or the Supabase server died, npm start
 * neither said so nor restarted it while the site served on): a dead server is reported and
 * restarted, too many deaths in a minute give up with a message, and stop() stops it for good.
 */

const node = (script: string): Promise<ChildProcess> => Promise.resolve(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }))
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25))
  return condition()
}

describe('supervise', () => {
  it('reports a death and restarts the server', async () => {
    const lines: string[] = []
    let starts = 0
    const supervised = await supervise('the test server', () => node(++starts === 1 ? 'process.exit(3)' : 'setInterval(() => {}, 1000)'), { onGiveUp: () => {}, log: (line) => lines.push(line) })
    expect(await until(() => starts === 2 && lines.some((line) => line.includes('running again')))).toBe(true)
    expect(lines.join('\n')).toMatch(/the test server stopped unexpectedly \(exit code 3\); restarting/)
    await supervised.stop()
    expect(supervised.child.exitCode !== null || supervised.child.signalCode !== null).toBe(true)
  })

  it('gives up after too many deaths in the window', async () => {
    let message = ''
    let starts = 0
    await supervise('the test server', () => (starts++, node('process.exit(1)')), { maxRestarts: 2, windowMs: 60_000, onGiveUp: (text) => (message = text), log: () => {} })
    expect(await until(() => message !== '')).toBe(true)
    expect(message).toMatch(/died 3 times in 60 s .*giving up/)
    expect(starts).toBe(3)
  })

  it('does not restart a server it was asked to stop', async () => {
    let starts = 0
    const supervised = await supervise('the test server', () => (starts++, node('setInterval(() => {}, 1000)')), { onGiveUp: () => {}, log: () => {} })
    await supervised.stop()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(starts).toBe(1)
  })
})
