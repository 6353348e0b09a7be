import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A token or secret, made once per data folder (or per run in memory), kept in `<dataDir>/<file>`. */
export function loadOrCreateSecret(dataDir: string | undefined, file: string, prefix: string): string {
  const fresh = () => `${prefix}${randomBytes(32).toString('base64url')}`
  if (!dataDir) return fresh()
  const path = join(dataDir, file)
  if (existsSync(path)) {
    const saved = readFileSync(path, 'utf8').trim()
    if (saved.length >= 32) return saved
  }
  const token = fresh()
  writeFileSync(path, `${token}\n`, { mode: 0o600 })
  return token
}
