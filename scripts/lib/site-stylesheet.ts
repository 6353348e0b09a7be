import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import tailwind from '@tailwindcss/postcss'
import browserslist from 'browserslist'
import { browserslistToTargets, transform } from 'lightningcss'
import postcss from 'postcss'

/*
 * The site's whole stylesheet as a file of its own. A page inlines only what its first screen uses
 * (app/first-screen.css, through Next) and links this file right after that screen
 * (components/layout/site-stylesheet.tsx): the browser stops reading the page there until the file has
 * arrived, so its first frame holds the first screen alone. Next would inline this sheet too (every
 * stylesheet a route imports is inlined, next.config.ts), so it is compiled here, from app/globals.css
 * with the project's own Tailwind, into public/styles/ under a name that changes with its content: it
 * is served as immutable (next.config.ts), and a browser that has it never asks again. Its address goes
 * to lib/site-stylesheet-href.ts, which the component imports. Both are written by the build, the test
 * command and `npm run dev` (which writes them again whenever a source changes), never by hand.
 */

const ENTRY = 'app/globals.css'
// The browsers Next compiles the inlined rules for (its default, the project names none): the same
// rules, compiled alike, in both sheets, down to how a colour is written.
const NEXT_TARGETS: string[] = createRequire(import.meta.url)('next/dist/shared/lib/modern-browserslist-target.js')
export const STYLESHEET_FOLDER = 'public/styles'
export const HREF_MODULE = 'lib/site-stylesheet-href.ts'
const NAME = /^site\.[\w-]+\.css$/

/** Writes a file only when its content changes: TypeScript or Next may be reading it meanwhile. */
function writeIfChanged(file: string, content: string) {
  if (existsSync(file) && readFileSync(file, 'utf8') === content) return
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, content)
}

/** Compiles the whole stylesheet, writes it and its address; returns the address and the size in bytes. */
export async function writeSiteStylesheet(root = process.cwd()): Promise<{ href: string; bytes: number }> {
  const from = path.join(root, ENTRY)
  const compiled = await postcss([tailwind({ base: root, optimize: { minify: true } })]).process(
    readFileSync(from, 'utf8'),
    { from },
  )
  const css = transform({
    filename: from,
    code: Buffer.from(compiled.css),
    minify: true,
    targets: browserslistToTargets(browserslist(NEXT_TARGETS)),
  }).code.toString()
  const name = `site.${createHash('sha256').update(css).digest('base64url').slice(0, 12)}.css`
  const folder = path.join(root, STYLESHEET_FOLDER)
  writeIfChanged(path.join(folder, name), css)
  // Only the current file: an older one would be served, immutable, to nobody.
  for (const old of readdirSync(folder)) if (NAME.test(old) && old !== name) rmSync(path.join(folder, old))
  const href = `/styles/${name}`
  writeIfChanged(
    path.join(root, HREF_MODULE),
    `// Written by scripts/lib/site-stylesheet.ts: the address of the site's whole stylesheet.\nexport const siteStylesheetHref = '${href}'\n`,
  )
  return { href, bytes: Buffer.byteLength(css) }
}

/** `npm run dev`: writes the stylesheet again whenever a file it is made from changes. */
export function watchSiteStylesheet(root = process.cwd()): void {
  let timer: NodeJS.Timeout | undefined
  let running = Promise.resolve()
  const rewrite = () => {
    running = running
      .then(() => writeSiteStylesheet(root))
      .then(({ href }) => console.log(`[dev] the site's stylesheet is ${href}`))
      .catch((error: Error) => console.error(`[dev] the site's stylesheet was not written: ${error.message}`))
  }
  // The folders app/globals.css takes classes from; the watchers end with the dev process.
  for (const folder of ['app', 'components', 'lib'])
    watch(path.join(root, folder), { recursive: true }, (_event, file) => {
      if (!file || path.join(folder, file) === HREF_MODULE || !/\.(tsx?|css)$/.test(file)) return
      clearTimeout(timer)
      timer = setTimeout(rewrite, 150)
    })
}
