import { spawn } from 'node:child_process'
import { appendFileSync, existsSync } from 'node:fs'
import { installDebianPackage } from './debian-package.ts'

const PATHS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/bin/valkey-server']

/**
 * A Redis server binary for the tests of the shared cache (several replicas): REDIS_SERVER_PATH when
 * set, else Debian's `redis-server`, installed when missing and we may (root + apt), as the test
 * command installs Chromium. npm has no Redis that builds offline.
 */
export function findRedisServer({ install = true }: { install?: boolean } = {}): string {
  const fromEnv = process.env.REDIS_SERVER_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  const existing = PATHS.find((candidate) => existsSync(candidate))
  if (existing) return existing
  if (install && installDebianPackage('redis-server', 'redis')) {
    const installed = PATHS.find((candidate) => existsSync(candidate))
    if (installed) return installed
  }
  throw new Error(
    'redis-server was not found. Install it (Debian/Ubuntu: `sudo apt-get install -y redis-server`) or set REDIS_SERVER_PATH to a redis-server or valkey-server binary.',
  )
}

export type RunningRedis = { url: string; port: number; pid: number; stop: () => Promise<void> }

/**
 * A throwaway Redis on loopback at `port`: nothing kept on disk, no password (loopback only, protected
 * mode on), stopped by `stop()` and when this process ends. Resolves once it accepts connections.
 */
export async function startRedisServer({
  port,
  binary = findRedisServer(),
  logFile,
}: {
  port: number
  binary?: string
  /** Where its own log goes too (it says why it stopped). */
  logFile?: string
}) {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stopOnExit = () => child.kill('SIGKILL')
  process.once('exit', stopOnExit)
  let output = ''
  let started = false
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s: ${output}`)), 10_000)
    // Its output is kept until it is ready (for the error, if it is not), then only logged.
    const onData = (chunk: Buffer) => {
      if (logFile) appendFileSync(logFile, chunk)
      if (started) return
      output += chunk
      if (/Ready to accept connections/.test(output)) {
        started = true
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited: ${output.slice(-500)}`))
    })
  })
  await ready
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async stop() {
      process.off('exit', stopOnExit)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  } satisfies RunningRedis
}
