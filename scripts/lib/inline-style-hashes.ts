import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { inlineStyleHashes, withStyleHashes } from '../../lib/security/content-security-policy.ts'
import { prerenderedHtmlFiles } from './prerendered-html.ts'

/*
 * The pages carry their stylesheet inline (next.config.ts, `inlineCss`). Our server names each page's
 * <style> by hash as it sends it (server/policy-stage.ts), but where Next serves the build alone (`next
 * start`, the standalone folder) the policy is the one next.config.ts wrote into the routes manifest
 * before any stylesheet existed. The stylesheets are known once the build is done, and they do not
 * change until the next build (a page regenerated after a publish inlines the same files): their
 * hashes go into that policy's `style-src` here, so every way of serving the build refuses any other
 * inline style, as it did when the stylesheet was a file.
 */

type RoutesManifest = { headers?: { headers: { key: string; value: string }[] }[] }

/** The manifests Next's servers read the headers from: the build's, and the standalone folder's copy. */
const manifests = (distDir: string) =>
  [
    path.join(distDir, 'routes-manifest.json'),
    path.join(distDir, 'standalone', distDir, 'routes-manifest.json'),
  ].filter((file) => existsSync(file))

/** Adds the hashes of every prerendered page's <style> elements to the build's policies. Returns them. */
export function addInlineStyleHashes(distDir: string): string[] {
  const hashes = [
    ...new Set(prerenderedHtmlFiles(distDir).flatMap((file) => inlineStyleHashes(readFileSync(file, 'utf8')))),
  ].sort()
  for (const file of manifests(distDir)) {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as RoutesManifest
    for (const rule of manifest.headers ?? [])
      for (const header of rule.headers)
        if (header.key.toLowerCase() === 'content-security-policy') header.value = withStyleHashes(header.value, hashes)
    writeFileSync(file, JSON.stringify(manifest))
  }
  return hashes
}
