import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'

/** The HTML files of a build's prerendered pages (every `.html` under `<distDir>/server/app`). */
export function prerenderedHtmlFiles(distDir: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name)
      return entry.isDirectory() ? walk(full) : entry.name.endsWith('.html') ? [full] : []
    })
  const appDir = path.join(distDir, 'server', 'app')
  return existsSync(appDir) ? walk(appDir) : []
}
