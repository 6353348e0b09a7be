import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SanityDocument } from './document-store.ts'

/*
 * A seed dataset (an export: production.ndjson + images/) read the way `sanity dataset import`
 * reads an export: every `_sanityAsset: "image@file://./images/<file>"` becomes an uploaded asset and
 * a reference to it. Drafts and release versions in the file are imported as they are.
 */

export type SeedUpload = { file: string; bytes: Buffer }
export type SeedDataset = { documents: SanityDocument[]; uploads: SeedUpload[] }

const ASSET_PATTERN = /^image@file:\/\/\.\/images\/([A-Za-z0-9][A-Za-z0-9._-]*)$/

export function readSeed(folder: string): SeedDataset {
  const file = join(folder, 'production.ndjson')
  const text = readFileSync(file, 'utf8')
  const documents = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as SanityDocument
      } catch {
        throw new Error(`${file} line ${index + 1} is not valid JSON`)
      }
    })
  const files = new Set<string>()
  collectAssets(documents, files)
  const uploads = [...files].map((file) => ({ file, bytes: readFileSync(join(folder, 'images', file)) }))
  return { documents, uploads }
}

function collectAssets(value: unknown, files: Set<string>) {
  if (Array.isArray(value)) return value.forEach((item) => collectAssets(item, files))
  if (!value || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (key === '_sanityAsset') {
      const file = typeof child === 'string' ? ASSET_PATTERN.exec(child)?.[1] : undefined
      if (!file) throw new Error(`Unsupported seed asset reference: ${String(child)}`)
      files.add(file)
    } else {
      collectAssets(child, files)
    }
  }
}

/** Replaces `_sanityAsset` markers with references to the uploaded assets (file name → asset id). */
export function withAssetReferences<T>(value: T, assetIds: Map<string, string>): T {
  if (Array.isArray(value)) return value.map((item) => withAssetReferences(item, assetIds)) as T
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    if (key === '_sanityAsset' && typeof child === 'string') {
      const file = ASSET_PATTERN.exec(child)?.[1]
      const id = file ? assetIds.get(file) : undefined
      if (!id) throw new Error(`Seed asset not uploaded: ${child}`)
      out.asset = { _type: 'reference', _ref: id }
    } else {
      out[key] = withAssetReferences(child, assetIds)
    }
  }
  return out as T
}
