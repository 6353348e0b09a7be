import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addCompileHints, COMPILE_HINT, firstLoadChunks } from './chunk-compile-hints.ts'

let dist: string
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true })
  writeFileSync(path.join(dist, file), text)
}
const read = (file: string) => readFileSync(path.join(dist, file), 'utf8')

beforeEach(() => {
  dist = mkdtempSync(path.join(tmpdir(), 'compile-hints-'))
  write(
    'server/app/fr.html',
    '<html><head><script src="/_next/static/chunks/react-dom.js" async=""></script><script src="/_next/static/chunks/polyfills.js" noModule=""></script></head></html>',
  )
  write(
    'server/app/en/about.html',
    '<script src="/_next/static/chunks/react-dom.js" async=""></script><script src="/_next/static/chunks/about.js" async=""></script>',
  )
  for (const chunk of ['react-dom', 'polyfills', 'about', 'contact-form'])
    write(`static/chunks/${chunk}.js`, `/* ${chunk} */`)
})
afterEach(() => rmSync(dist, { recursive: true, force: true }))

describe('compile hints on first-load chunks', () => {
  it('finds the scripts every prerendered page loads, not the noModule polyfills', () => {
    expect([...firstLoadChunks(dist)].sort()).toEqual(['static/chunks/about.js', 'static/chunks/react-dom.js'])
  })

  it('prepends the hint to those chunks only, once', () => {
    expect(addCompileHints(dist).sort()).toEqual(['static/chunks/about.js', 'static/chunks/react-dom.js'])
    expect(read('static/chunks/react-dom.js')).toBe(`${COMPILE_HINT}/* react-dom */`)
    expect(read('static/chunks/about.js')).toBe(`${COMPILE_HINT}/* about */`)
    // Loaded on demand or never by a modern browser: left as built.
    expect(read('static/chunks/polyfills.js')).toBe('/* polyfills */')
    expect(read('static/chunks/contact-form.js')).toBe('/* contact-form */')
    // A second run (npm start after a build) changes nothing.
    expect(addCompileHints(dist)).toEqual([])
    expect(read('static/chunks/react-dom.js')).toBe(`${COMPILE_HINT}/* react-dom */`)
  })

  it('moves the hinted chunk’s source map down by the hint’s line, once', () => {
    write('static/chunks/about.js', '/* about */\n//# sourceMappingURL=about.js.map')
    write('static/chunks/about.js.map', JSON.stringify({ version: 3, sources: ['a.ts'], mappings: 'AAAA;AACA' }))
    write('static/chunks/react-dom.js', '/* react-dom */\n//# sourceMappingURL=rd.js.map')
    write('static/chunks/rd.js.map', JSON.stringify({ version: 3, sections: [{ offset: { line: 0, column: 0 } }] }))
    addCompileHints(dist)
    addCompileHints(dist)
    expect(JSON.parse(read('static/chunks/about.js.map')).mappings).toBe(';AAAA;AACA')
    expect(JSON.parse(read('static/chunks/rd.js.map')).sections[0].offset).toEqual({ line: 1, column: 0 })
  })

  it('starts with the magic comment Chrome looks for', () => {
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad\n')
  })

  it('does nothing when there is no build yet', () => {
    rmSync(path.join(dist, 'server'), { recursive: true })
    expect(addCompileHints(dist)).toEqual([])
  })
})
