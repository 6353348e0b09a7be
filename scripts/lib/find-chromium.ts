import { existsSync } from 'node:fs'
import { installDebianPackage } from './debian-package.ts'

/**
 * The two builds of Debian's Chromium we drive:
 * - `browser`: the whole browser (package `chromium`), for the benchmarks, which measure what a
 *   visitor's Chrome does (Lighthouse runs it `--headless=new`);
 * - `headless-shell`: the headless-only shell (package `chromium-headless-shell`, the same Chromium
 *   release), for the browser tests. It is what Playwright itself runs headless tests on, the same
 *   Blink and V8 without the browser's window, GPU process and UI around them: the test command's
 *   browser tests took half the time on it on a 2-core machine (docs/testing.md, Chromium).
 */
type ChromiumKind = 'browser' | 'headless-shell'
const KINDS: Record<ChromiumKind, { package: string; paths: string[] }> = {
  browser: {
    package: 'chromium',
    paths: [
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
    ],
  },
  'headless-shell': {
    package: 'chromium-headless-shell',
    paths: ['/usr/bin/chromium-headless-shell', '/usr/lib/chromium/chromium-headless-shell'],
  },
}

/** Flags for Chromium on a sandboxed, network-less machine (no background traffic, no GPU). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

const firstExisting = (paths: string[]) => paths.find((candidate) => existsSync(candidate))

/**
 * Path of a Chromium to drive with Playwright: `CHROMIUM_PATH` when set, else Debian's package of the
 * kind asked for, installed when missing and we are allowed to (root + apt). Playwright's own browser
 * download cannot work offline. The tests fall back on the whole browser when the shell cannot be had.
 */
export function findChromium({
  install = true,
  kind = 'browser',
}: { install?: boolean; kind?: ChromiumKind } = {}): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  const wanted = KINDS[kind]
  const existing = firstExisting(wanted.paths)
  if (existing) return existing
  if (install && installDebianPackage(wanted.package, 'chromium')) {
    const installed = firstExisting(wanted.paths)
    if (installed) return installed
  }
  const fallback = kind === 'browser' ? undefined : firstExisting(KINDS.browser.paths)
  if (fallback) return fallback
  throw new Error(
    `Chromium was not found. Install it (Debian/Ubuntu: \`sudo apt-get install -y ${wanted.package}\`) or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
  )
}
