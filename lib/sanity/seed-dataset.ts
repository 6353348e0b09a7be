import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The bundled seed dataset (studio/seed), loaded as the Content Lake would hold it after
 * `sanity dataset import`: drafts and release versions dropped, and every `_sanityAsset` file
 * reference turned into a real `sanity.imageAsset` document, so the very same GROQ (asset->url,
 * asset->metadata.dimensions) works offline. Images are then served from /seed-assets/<file>.
 */

export const SEED_DIR = path.join(process.cwd(), 'studio', 'seed')
export const SEED_IMAGES_DIR = path.join(SEED_DIR, 'images')
export const SEED_ASSET_ROUTE = '/seed-assets'

export type SeedDocument = { _id: string; _type: string; [key: string]: unknown }

const ASSET_PATTERN = /^image@file:\/\/\.\/images\/([a-z0-9][a-z0-9-]*\.svg)$/

/** Intrinsic size of an SVG from its width/height attributes, falling back to its viewBox. */
export function svgDimensions(svg: string): { width: number; height: number } {
  const tag = svg.match(/<svg\b[^>]*>/)?.[0] ?? ''
  const attr = (name: string) => Number(tag.match(new RegExp(`\\s${name}="([\\d.]+)"`))?.[1])
  const [, , vbWidth, vbHeight] = (tag.match(/viewBox="([^"]+)"/)?.[1] ?? '').split(/[\s,]+/).map(Number)
  const width = attr('width') || vbWidth
  const height = attr('height') || vbHeight
  if (!width || !height) throw new Error('SVG without width/height or viewBox')
  return { width, height }
}

function assetDocument(file: string): SeedDocument {
  const { width, height } = svgDimensions(readFileSync(path.join(SEED_IMAGES_DIR, file), 'utf8'))
  const name = file.replace(/\.svg$/, '')
  return {
    _id: `image-seed${name}-${width}x${height}-svg`,
    _type: 'sanity.imageAsset',
    originalFilename: file,
    extension: 'svg',
    mimeType: 'image/svg+xml',
    url: `${SEED_ASSET_ROUTE}/${file}`,
    path: `${SEED_ASSET_ROUTE}/${file}`,
    metadata: {
      _type: 'sanity.imageMetadata',
      dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height },
    },
  }
}

function resolveAssets(value: unknown, assets: Map<string, SeedDocument>): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveAssets(item, assets))
  if (!value || typeof value !== 'object') return value
  const entries = Object.entries(value as Record<string, unknown>)
  const out: Record<string, unknown> = {}
  for (const [key, child] of entries) {
    if (key === '_sanityAsset' && typeof child === 'string') {
      const file = child.match(ASSET_PATTERN)?.[1]
      if (!file) throw new Error(`Unsupported seed asset reference: ${child}`)
      const asset = assets.get(file) ?? assetDocument(file)
      assets.set(file, asset)
      out.asset = { _type: 'reference', _ref: asset._id }
    } else {
      out[key] = resolveAssets(child, assets)
    }
  }
  return out
}

/** Parses an NDJSON export into published documents plus synthesised image assets. */
export function parseSeedDataset(ndjson: string): SeedDocument[] {
  const assets = new Map<string, SeedDocument>()
  const documents = ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SeedDocument)
    .filter((doc) => !doc._id.startsWith('drafts.') && !doc._id.startsWith('versions.'))
    .map((doc) => resolveAssets(doc, assets) as SeedDocument)
  return [...documents, ...assets.values()]
}

let cached: SeedDocument[] | undefined

/** The seed dataset, read and parsed once per process. */
export function loadSeedDataset(): SeedDocument[] {
  cached ??= parseSeedDataset(readFileSync(path.join(SEED_DIR, 'production.ndjson'), 'utf8'))
  return cached
}
