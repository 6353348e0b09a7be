import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { firstLoadScripts } from './first-load-scripts.ts'
import { prerenderedHtmlFiles } from './prerendered-html.ts'

/**
 * Chrome's explicit compile hint (V8, Chrome 136+): a file that starts with this comment has all its
 * functions compiled eagerly, on a background thread while it streams in. Without it, each module
 * factory of a first-load chunk (React DOM's alone is ~200 KB) is compiled lazily on the main thread
 * the moment hydration starts, inside one long task. Other browsers read it as a plain comment.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

/**
 * The chunks the prerendered pages of a build load as soon as they open: the `<script src async>`
 * tags of every HTML file under `<distDir>/server/app` (not the `noModule` polyfills, which no
 * modern browser runs). Chunks loaded later (the contact form, animation features, the Studio) are
 * left lazy: compiling them eagerly would only cost time and memory on load.
 */
export function firstLoadChunks(distDir: string): Set<string> {
  const chunks = new Set<string>()
  for (const file of prerenderedHtmlFiles(distDir)) {
    for (const src of firstLoadScripts(readFileSync(file, 'utf8'))) {
      if (/^\/_next\/static\/chunks\/[^?]+\.js$/.test(src)) chunks.add(src.slice('/_next/'.length))
    }
  }
  return chunks
}

/** Prepends the compile hint to every first-load chunk of the build in distDir (idempotent). Returns the chunks changed. */
export function addCompileHints(distDir: string): string[] {
  const changed: string[] = []
  for (const chunk of firstLoadChunks(distDir)) {
    const file = path.join(distDir, chunk)
    if (!existsSync(file)) continue
    const source = readFileSync(file, 'utf8')
    if (source.startsWith(COMPILE_HINT)) continue
    writeFileSync(file, COMPILE_HINT + source)
    shiftSourceMap(file, source)
    changed.push(chunk)
  }
  return changed
}

/**
 * The hint is one more line at the top of the chunk: its source map (named by the chunk's last
 * `sourceMappingURL` comment) moves down by a line to match, or every position in it would point one
 * line too high (debuggers, error reports and Lighthouse would read the wrong code).
 */
function shiftSourceMap(file: string, source: string) {
  const name = /\/\/# sourceMappingURL=([^\s]+)\s*$/.exec(source)?.[1]
  if (!name || name.startsWith('data:')) return
  const mapFile = path.join(path.dirname(file), name)
  if (!existsSync(mapFile)) return
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as {
    mappings?: string
    sections?: { offset: { line: number; column: number } }[]
  }
  if (typeof map.mappings === 'string') map.mappings = `;${map.mappings}`
  for (const section of map.sections ?? []) section.offset.line += 1
  writeFileSync(mapFile, JSON.stringify(map))
}
