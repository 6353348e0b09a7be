// The container image's file system without Docker (no engine runs here): the COPY --from=build lines
// of the Dockerfile's last stage, applied to a build in this checkout, and that stage's CMD. The test
// command serves the result from an empty folder, so a file the image lacks fails a test.
import { cpSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const BUILD_ROOT = '/app/'

/** The last stage's `COPY --from=build <source> <target>` pairs (relative to /app) and its CMD. */
export function runtimeStage(dockerfile = readFileSync('Dockerfile', 'utf8')): {
  copies: Array<{ source: string; target: string }>
  cmd: string[]
} {
  // Continued lines joined; comments dropped.
  const lines = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
  const lastFrom = lines.findLastIndex((line) => /^FROM\s/i.test(line))
  const copies: Array<{ source: string; target: string }> = []
  let cmd: unknown = null
  for (const line of lines.slice(lastFrom + 1)) {
    const [instruction, ...words] = line.split(/\s+/)
    if (/^CMD$/i.test(instruction)) cmd = JSON.parse(line.slice(instruction.length))
    if (!/^COPY$/i.test(instruction)) continue
    const flags = words.filter((word) => word.startsWith('--'))
    const paths = words.filter((word) => !word.startsWith('--'))
    if (!flags.includes('--from=build'))
      throw new Error(`Dockerfile: the runtime stage copies only from the build stage (${line})`)
    if (paths.length !== 2 || !paths[0].startsWith(BUILD_ROOT))
      throw new Error(`Dockerfile: one ${BUILD_ROOT}… source and one target per COPY (${line})`)
    copies.push({ source: paths[0].slice(BUILD_ROOT.length), target: paths[1].replace(/^\.\//, '') || '.' })
  }
  if (!Array.isArray(cmd)) throw new Error('Dockerfile: the runtime stage needs an exec-form CMD')
  return { copies, cmd: cmd as string[] }
}

/** Builds the image's /app in `destination` from this checkout's build in `distDir` (the Dockerfile
 *  builds into `.next`; the test command into another folder, substituted here). */
export function makeStandaloneFolder(
  destination: string,
  { distDir = '.next' }: { distDir?: string } = {},
): { cmd: string[] } {
  const { copies, cmd } = runtimeStage()
  const withDistDir = (file: string) => file.replace(/^\.next(?=\/|$)/, distDir)
  for (const { source, target } of copies) {
    const to = path.join(destination, withDistDir(target))
    mkdirSync(path.dirname(to), { recursive: true })
    cpSync(withDistDir(source), to, { recursive: true, verbatimSymlinks: true })
  }
  return { cmd }
}
