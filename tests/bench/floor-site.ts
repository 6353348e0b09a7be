import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { runToEnd } from '../../scripts/lib/supervisor.ts'

/*
 * The framework's floor the benchmarks compare the site with: the smallest App Router page with client
 * code (a heading and one client button), built by the installed `next` in .bench-floor/origin/ (nothing
 * of it is committed) and served by `next start`. What it scores is what no change to our pages can beat
 * on the machine at hand.
 */
export const FLOOR_DIR = resolve('.bench-floor/origin')

/** Builds the floor once (reused while its build is there); the build's output goes to `logFile`. */
export async function buildFloorSite(logFile: string): Promise<string> {
  if (existsSync(join(FLOOR_DIR, '.next', 'BUILD_ID'))) return FLOOR_DIR
  rmSync(FLOOR_DIR, { recursive: true, force: true })
  mkdirSync(join(FLOOR_DIR, 'app'), { recursive: true })
  const root = JSON.stringify(process.cwd())
  writeFileSync(join(FLOOR_DIR, 'package.json'), JSON.stringify({ private: true, type: 'module' }))
  writeFileSync(
    join(FLOOR_DIR, 'next.config.mjs'),
    `export default { turbopack: { root: ${root} }, outputFileTracingRoot: ${root} }\n`,
  )
  writeFileSync(
    join(FLOOR_DIR, 'app', 'layout.js'),
    "export const metadata = { title: 'Floor', description: 'An empty Next.js page.' }\nexport default function Layout({ children }) { return <html lang=\"en\"><body>{children}</body></html> }\n",
  )
  writeFileSync(
    join(FLOOR_DIR, 'app', 'button.js'),
    "'use client'\nimport { useState } from 'react'\nexport function Button() { const [n, setN] = useState(0); return <button onClick={() => setN(n + 1)}>{n}</button> }\n",
  )
  writeFileSync(
    join(FLOOR_DIR, 'app', 'page.js'),
    "import { Button } from './button'\nexport default function Page() { return <main><h1>Floor</h1><Button /></main> }\n",
  )
  console.log('▶ building the empty Next.js page (the floor) in .bench-floor/origin/')
  const { code } = await runToEnd(resolve('node_modules/.bin/next'), ['build'], {
    cwd: FLOOR_DIR,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
    logFile,
  })
  if (code !== 0) throw new Error(`the floor's build failed (exit ${code}; its output: ${logFile})`)
  return FLOOR_DIR
}
