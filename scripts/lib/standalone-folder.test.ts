import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { twinTraces } from './standalone-folder.ts'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A folder with these files (empty), as a build would leave it. */
function folderWith(files: string[]): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'plume-production-folder-'))
  folders.push(folder)
  for (const file of files) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true })
    writeFileSync(path.join(folder, file), '')
  }
  return folder
}

describe('twinTraces (what a production folder holds of the twins)', () => {
  it("nothing in a folder of the site's own modules and Next's (sharp is Next's too)", () => {
    const folder = folderWith([
      'server.js',
      '.next/server/app/page.js',
      'node_modules/next/package.json',
      'node_modules/sharp/package.json',
      'node_modules/react/index.js',
    ])
    expect(twinTraces(folder)).toEqual([])
  })

  it('the package, its folder, or a module only the twins use, wherever it sits', () => {
    const folder = folderWith([
      'node_modules/@plume/twins/twins.ts',
      'twins/content-lake/content-lake-server.ts',
      'node_modules/maildev/index.js',
      'node_modules/next/node_modules/groq-js/package.json',
      'node_modules/@electric-sql/pglite/dist/index.js',
    ])
    expect(twinTraces(folder).sort()).toEqual(
      [
        'node_modules/@plume/twins',
        'twins',
        'node_modules/maildev',
        'node_modules/next/node_modules/groq-js',
        'node_modules/@electric-sql/pglite',
      ].sort(),
    )
  })
})
