// The container image's file system without Docker (no engine runs here): the COPY --from=build lines
// of the Dockerfile's last stage, applied to a build in this checkout, and that stage's CMD. The test
// command serves the result from an empty folder, so a file the image lacks fails a test.
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
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

/**
 * What a production folder (the standalone one, the image's) holds of the twins: their package or its
 * folder, or a module only they depend on (those `next` also depends on, sharp, are Next's own). Empty
 * when it holds none, as it must: the twins are for development and tests.
 */
export function twinTraces(folder: string, root = process.cwd()): string[] {
  const manifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>
  const twins = manifest(path.join(root, 'twins', 'package.json'))
  const next = manifest(path.join(root, 'node_modules', 'next', 'package.json'))
  const site = manifest(path.join(root, 'package.json'))
  const shared = new Set(
    [next.dependencies, next.optionalDependencies, site.dependencies].flatMap((deps) => Object.keys(deps ?? {})),
  )
  const theirs = Object.keys(twins.dependencies ?? {}).filter((name) => !shared.has(name))
  const found: string[] = []
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const relative = path.relative(folder, path.join(entry.parentPath, entry.name))
    const parts = relative.split(path.sep)
    if (relative === 'twins') found.push(relative)
    // A module's own folder: node_modules/<name> or node_modules/@scope/<name>, at any depth.
    const modules = parts.length - (parts.at(-2)?.startsWith('@') ? 3 : 2)
    if (parts[modules] !== 'node_modules') continue
    const name = parts.slice(modules + 1).join('/')
    if (name.startsWith('@plume/') || theirs.includes(name)) found.push(relative)
  }
  return found
}
