import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HREF_MODULE, STYLESHEET_FOLDER, writeSiteStylesheet } from './site-stylesheet.ts'

// A project of one component, beside the real node_modules (Tailwind resolves its import from there).
const root = mkdtempSync(path.join(tmpdir(), 'site-stylesheet-'))
symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'))
mkdirSync(path.join(root, 'app'))
mkdirSync(path.join(root, 'components'))
writeFileSync(
  path.join(root, 'app', 'globals.css'),
  "@import 'tailwindcss';\n@theme { --color-clay: oklch(50% 0.15 40); }\n",
)
const component = (classes: string) =>
  writeFileSync(path.join(root, 'components', 'card.tsx'), `export const Card = () => <p className="${classes}" />\n`)
const files = () => readdirSync(path.join(root, STYLESHEET_FOLDER))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('the site’s whole stylesheet', () => {
  it('holds every class of the sources, compiled as Next compiles the inlined rules, under a name from its content', async () => {
    component('text-clay underline')
    const { href } = await writeSiteStylesheet(root)
    expect(href).toMatch(/^\/styles\/site\.[\w-]{12}\.css$/)
    expect(files()).toEqual([path.basename(href)])
    const css = readFileSync(path.join(root, 'public', href), 'utf8')
    expect(css).toContain('.underline{')
    expect(css).toContain('.text-clay{')
    // Next's browsers (Firefox 111 among them) get the colour as lab(), as in the inlined rules.
    expect(css).toMatch(/--color-clay:lab\(/)
    expect(readFileSync(path.join(root, HREF_MODULE), 'utf8')).toContain(`export const siteStylesheetHref = '${href}'`)
  })

  it('leaves its files as they are when nothing changed, and keeps only the current one when a class did', async () => {
    const { href: first } = await writeSiteStylesheet(root)
    const written = statSync(path.join(root, HREF_MODULE)).mtimeMs
    expect((await writeSiteStylesheet(root)).href).toBe(first)
    expect(statSync(path.join(root, HREF_MODULE)).mtimeMs).toBe(written)

    component('text-clay line-through')
    const { href: second } = await writeSiteStylesheet(root)
    expect(second).not.toBe(first)
    expect(files()).toEqual([path.basename(second)])
    expect(readFileSync(path.join(root, 'public', second), 'utf8')).toContain('.line-through{')
  })
})
