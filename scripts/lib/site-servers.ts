import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { isPortTaken } from '@plume/twins/free-port'

/*
 * The servers of this checkout serving a build folder (`npm start`'s, `npm run serve`'s), a file each in
 * .data/site-servers: a build into that folder replaces the files they serve under them (their pages
 * then ask for scripts that are gone), so `npm run build` refuses while one runs.
 */

const FOLDER = '.data/site-servers'

export type SiteServer = { pid: number; port: number; distDir: string }

/** Records this process as serving `distDir` on `port`, until it exits. */
export function registerSiteServer({ port, distDir }: { port: number; distDir: string }, folder = FOLDER): void {
  mkdirSync(folder, { recursive: true })
  const file = path.join(folder, `${process.pid}.json`)
  const server: SiteServer = { pid: process.pid, port, distDir: path.resolve(distDir) }
  writeFileSync(file, JSON.stringify(server))
  process.once('exit', () => rmSync(file, { force: true }))
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The other servers recorded as serving `distDir` whose process lives and whose port answers. A record
 * left by a server stopped without its exit hook (kill -9, a reboot) is forgotten.
 */
export async function runningSiteServers(distDir: string, folder = FOLDER): Promise<SiteServer[]> {
  let names: string[]
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'))
  } catch {
    return []
  }
  const running: SiteServer[] = []
  for (const name of names) {
    const file = path.join(folder, name)
    let server: SiteServer
    try {
      server = JSON.parse(readFileSync(file, 'utf8')) as SiteServer
    } catch {
      continue
    }
    if (server.pid === process.pid) continue
    if (!alive(server.pid) || !(await isPortTaken(server.port))) rmSync(file, { force: true })
    else if (server.distDir === path.resolve(distDir)) running.push(server)
  }
  return running
}
