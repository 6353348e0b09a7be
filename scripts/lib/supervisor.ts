import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/*
 * The one owner of child processes, for every command that starts some: `npm start`, `npm run dev`,
 * the build, the test command, Playwright's webServer and the benchmarks. It starts them, keeps the
 * long-lived ones running (a process that dies unasked is started again, a few times a minute at most,
 * then given up on with a message), and stops every one of them when asked, when the caller exits, and
 * on Ctrl-C, SIGTERM or SIGHUP. No other file installs exit or signal hooks for children.
 *
 * A kept Node process gets an IPC channel it never reads (exit-with-parent.ts, preloaded): when the
 * caller dies, even by kill -9, the channel closes and the child ends itself, so nothing is left behind
 * holding a port.
 */

/** How long a child may take to end after SIGTERM before it gets SIGKILL. */
const STOP_GRACE_MS = 10_000

export type ChildOptions = {
  env?: Record<string, string | undefined>
  cwd?: string
  /** Append the child's output to this file (default: the caller's stdout and stderr). */
  logFile?: string
  /** Discard the child's output (unless logged to a file). */
  quiet?: boolean
}

export type KeepOptions = ChildOptions & {
  /** Write `<name>.pid` here at each (re)start, for tests that kill a process on purpose. */
  pidDir?: string
  /** How many restarts within `restartWindowMs` are tolerated before giving up (default 5 in 60 s). */
  maxRestarts?: number
  restartWindowMs?: number
  /** Called once the process died too often and was given up on. */
  onGiveUp: (message: string) => void
}

/** A process kept running: started again when it dies, until stop() or too many deaths. */
export type Kept = { name: string; pid: () => number | undefined; stop: () => Promise<void> }

const running = new Set<ChildProcess>()
const kept = new Set<Kept>()
const shutdownHooks: Array<() => Promise<void> | void> = []
let signalExitCode: number | null = null
let hooksInstalled = false
let shuttingDown = false

function installHooks() {
  if (hooksInstalled) return
  hooksInstalled = true
  // Any way Node exits (process.exit, an uncaught error): nothing may outlive the caller.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM')
  })
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const) {
    process.on(signal, () => void exitAfterStopping(signalExitCode ?? 128 + number))
  }
}

/** The exit code after Ctrl-C, SIGTERM or SIGHUP (default 128 + the signal's number; `npm start` says 0). */
export function exitOnSignalWith(code: number) {
  installHooks()
  signalExitCode = code
}

/** Work to do before the children are stopped on a signal or exitAfterStopping (e.g. print a summary). */
export function beforeShutdown(hook: () => Promise<void> | void) {
  installHooks()
  shutdownHooks.push(hook)
}

const outputOf = (options: ChildOptions): 'ignore' | 'inherit' | number =>
  options.logFile ? openSync(options.logFile, 'a') : options.quiet ? 'ignore' : 'inherit'

/** Starts a process that runs until it ends or is stopped (not restarted), stopped with the others. */
export function startProcess(command: string, args: string[], options: ChildOptions = {}): ChildProcess {
  installHooks()
  const output = outputOf(options)
  const child = spawn(command, args, {
    cwd: options.cwd,
    stdio: ['ignore', output, output],
    env: { ...process.env, ...options.env },
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

export type Finished = { code: number; output: string }

/**
 * Runs a command to its end without blocking the event loop (restarts and signals are handled
 * meanwhile). Its output goes to the terminal as it comes or, with `buffer`, is returned in one piece.
 */
export function runToEnd(
  command: string,
  args: string[],
  options: ChildOptions & { buffer?: boolean } = {},
): Promise<Finished> {
  installHooks()
  return new Promise((resolve) => {
    const output: 'pipe' | 'ignore' | 'inherit' | number = options.buffer ? 'pipe' : outputOf(options)
    const child = spawn(command, args, {
      cwd: options.cwd,
      stdio: ['ignore', output, output],
      env: { ...process.env, ...options.env },
    })
    running.add(child)
    const chunks: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.once('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)))
    child.once('close', (code, signal) => {
      running.delete(child)
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() })
    })
  })
}

/** Ends `child` with SIGTERM, then SIGKILL after the grace period; resolves once it has exited. */
export function stopProcess(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** `node <script> <args>` (the caller's Node), which ends itself when the caller dies (exit-with-parent.ts). */
function spawnNode(
  script: string,
  args: string[],
  options: ChildOptions,
  output: 'ignore' | 'inherit' | number,
): ChildProcess {
  installHooks()
  const child = spawn(
    process.execPath,
    ['--import', join(import.meta.dirname, 'exit-with-parent.ts'), script, ...args],
    {
      cwd: options.cwd,
      stdio: ['ignore', output, output, 'ipc'],
      env: { ...process.env, ...options.env },
    },
  )
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

/** Starts `node <script> <args>`, not restarted if it dies, stopped with the others (the benchmarks' servers). */
export function startNode(script: string, args: string[], options: ChildOptions = {}): ChildProcess {
  return spawnNode(script, args, options, outputOf(options))
}

/** Runs `node <script> <args>` and starts it again whenever it dies unasked, as a process manager would. */
export function keepRunning(name: string, script: string, args: string[], options: KeepOptions): Kept {
  installHooks()
  const { maxRestarts = 5, restartWindowMs = 60_000 } = options
  const output = outputOf(options)
  if (options.pidDir) mkdirSync(options.pidDir, { recursive: true })
  const deaths: number[] = []
  let child: ChildProcess | undefined
  let stopping = false

  const launch = () => {
    const started = spawnNode(script, args, options, output)
    child = started
    if (options.pidDir && started.pid) writeFileSync(join(options.pidDir, `${name}.pid`), String(started.pid))
    started.once('exit', (code, signal) => {
      if (stopping || shuttingDown) return
      const now = Date.now()
      deaths.push(now)
      while (deaths.length && deaths[0] < now - restartWindowMs) deaths.shift()
      if (deaths.length > maxRestarts) {
        stopping = true
        kept.delete(handle)
        const where = options.logFile ? ` or in ${options.logFile}` : ''
        options.onGiveUp(
          `${name} stopped ${deaths.length} times within ${Math.round(restartWindowMs / 1000)} s ` +
            `(last: ${signal ?? `exit ${code}`}); see its output above${where}.`,
        )
        return
      }
      console.error(`[${name}] stopped (${signal ?? `exit ${code}`}); starting it again`)
      launch()
    })
  }

  const handle: Kept = {
    name,
    pid: () => child?.pid,
    stop: () => {
      stopping = true
      kept.delete(handle)
      return child ? stopProcess(child) : Promise.resolve()
    },
  }
  kept.add(handle)
  launch()
  return handle
}

/** Stops every child this process started (kept ones are not restarted), waiting for them to end. */
export async function stopAll(): Promise<void> {
  await Promise.all([...[...kept].map((one) => one.stop()), ...[...running].map((child) => stopProcess(child))])
}

/**
 * Runs the shutdown hooks, stops every child, then exits with `code` (after printing `message`, if
 * any). Safe to call more than once: the first call decides.
 */
export async function exitAfterStopping(code: number, message?: string): Promise<never> {
  if (message) console.error(message)
  if (!shuttingDown) {
    shuttingDown = true
    for (const hook of shutdownHooks.splice(0)) await hook()
    await stopAll()
    process.exit(code)
  }
  // A second signal while stopping: wait for the first to finish (it exits).
  return new Promise<never>(() => {})
}
