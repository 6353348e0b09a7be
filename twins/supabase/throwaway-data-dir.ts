import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { BOOTSTRAP_SQL, listMigrations } from './migrations.ts'

/*
 * Folders for throwaway databases (tests, --memory). They are folders, not PGlite's in-memory store,
 * because a statement timeout ends the engine and only files let the next engine carry on with the
 * same data (see database.ts). Creating a database (initdb, then the migrations) costs seconds, so
 * each throwaway folder is a copy of a template built once per set of migrations and shared by every
 * process of this machine; reopening a copy takes a fraction of that.
 */

const PREFIX = 'local-supabase-memory-'
const TEMPLATE_PREFIX = 'local-supabase-template-'

/** Which SQL, which PGlite and which engine code built a template: a different migration makes a different template. */
function templateKey(migrationsDir: string): string {
  const hash = createHash('sha256')
  // The package's manifest (not exported by the package: found next to its entry point).
  hash.update(
    readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json')),
  )
  // And the engine's code that builds it (what it writes beside the data, database-worker.ts).
  hash.update(readFileSync(new URL('./database-worker.ts', import.meta.url)))
  // By name and content, not path: the same migrations in another (temporary) folder reuse the template.
  for (const file of [BOOTSTRAP_SQL, ...listMigrations(migrationsDir).map((migration) => migration.file)])
    hash.update(basename(file)).update('\0').update(readFileSync(file))
  return hash.digest('hex').slice(0, 16)
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'
  }
}

/** Folders left behind by processes that were killed (their pid is in the name). */
function removeStaleFolders() {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(PREFIX)) continue
    const pid = Number(entry.slice(PREFIX.length).split('-')[0])
    if (!pid || processExists(pid)) continue
    try {
      rmSync(join(tmpdir(), entry), { recursive: true, force: true })
    } catch {
      // Someone else's (another user's folder): not ours to remove.
    }
  }
}

const newFolder = () => mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`))

/**
 * A new folder holding a ready database: a copy of the template, which `build` (open an engine on the
 * given folder, which creates and migrates it, then close it) makes first if there is none yet.
 * Remove the folder when done with it.
 */
export async function createThrowawayDataDir(
  build: (folder: string) => Promise<void>,
  migrationsDir: string,
): Promise<string> {
  removeStaleFolders()
  const key = templateKey(migrationsDir)
  const template = join(tmpdir(), `${TEMPLATE_PREFIX}${key}`)
  if (!readdirSync(tmpdir()).includes(`${TEMPLATE_PREFIX}${key}`)) {
    const draft = newFolder()
    try {
      await build(draft)
      // Atomic: other processes see a complete template or none. If one got there first, keep theirs.
      renameSync(draft, template)
    } catch (error) {
      rmSync(draft, { recursive: true, force: true })
      const code = (error as { code?: string }).code
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
    }
  }
  const folder = newFolder()
  cpSync(template, folder, { recursive: true })
  return folder
}
