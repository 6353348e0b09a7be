import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/*
 * What in this checkout reads or writes a build folder: its servers (`npm start`'s, `npm run serve`'s)
 * and the build writing it, a file each in .data/site-servers. A build replaces the files a server
 * serves under it (its pages then ask for scripts that are gone), and a server started during a build
 * serves a folder half written: each refuses while the other runs.
 */

const FOLDER = '.data/site-servers'

export type SiteProcess = {
  pid: number
  /** When the process started (Linux: /proc/<pid>/stat), so that a pid reused after a reboot is not it. */
  started: string | null
  port: number
  distDir: string
}

/** A process's start time, in clock ticks since boot; null where /proc is not (macOS). */
function startOf(pid: number): string | null {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces: field 22 is 20th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function alive({ pid, started }: SiteProcess): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return started === null || startOf(pid) === started
}

function describeSelf(port: number, distDir: string): SiteProcess {
  return { pid: process.pid, started: startOf(process.pid), port, distDir: path.resolve(distDir) }
}

/** Reads a record; a record whose process is gone (kill -9, a reboot) is removed and read as null. */
function read(file: string): SiteProcess | null {
  let record: SiteProcess
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as SiteProcess
  } catch {
    return null
  }
  if (alive(record)) return record
  rmSync(file, { force: true })
  return null
}

/** Records this process as serving `distDir` on `port`, until it exits. */
export function registerSiteServer({ port, distDir }: { port: number; distDir: string }, folder = FOLDER): void {
  mkdirSync(folder, { recursive: true })
  const file = path.join(folder, `${process.pid}.json`)
  writeFileSync(file, JSON.stringify(describeSelf(port, distDir)))
  process.once('exit', () => rmSync(file, { force: true }))
}

/** The other live processes recorded as serving `distDir`. */
export function runningSiteServers(distDir: string, folder = FOLDER): SiteProcess[] {
  let names: string[]
  try {
    names = readdirSync(folder).filter((name) => /^\d+\.json$/.test(name))
  } catch {
    return []
  }
  return names
    .map((name) => read(path.join(folder, name)))
    .filter((server): server is SiteProcess => server?.distDir === path.resolve(distDir) && server.pid !== process.pid)
}

const buildFile = (distDir: string, folder: string) =>
  path.join(folder, `build-${createHash('sha256').update(path.resolve(distDir)).digest('hex').slice(0, 16)}.json`)

/** The live build writing `distDir`, if one is. */
export function buildInProgress(distDir: string, folder = FOLDER): SiteProcess | null {
  return read(buildFile(distDir, folder))
}

/**
 * Takes the right to write `distDir` (an exclusive file, released when this process exits or by
 * `release`), or names the live build that holds it.
 */
export function lockBuild(
  distDir: string,
  folder = FOLDER,
): { acquired: true; release: () => void } | { acquired: false; holder: SiteProcess } {
  mkdirSync(folder, { recursive: true })
  const file = buildFile(distDir, folder)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(describeSelf(0, distDir)), { flag: 'wx' })
      const release = () => rmSync(file, { force: true })
      process.once('exit', release)
      return { acquired: true, release }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      // Held: by a live build, or by one that died (its file is removed, and the next attempt takes it).
      const holder = read(file)
      if (holder) return { acquired: false, holder }
    }
  }
  throw new Error(`${file} could not be taken: another build took it meanwhile`)
}
