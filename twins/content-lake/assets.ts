import { createHash, randomUUID } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { imageSize } from 'image-size'
import type { SanityDocument } from './document-store.ts'
import { badRequest } from './content-lake-error.ts'
import { MAX_INPUT_PIXELS } from './image-params.ts'

/*
 * Image and file assets as the Content Lake stores them: the bytes under a content hash, and a
 * `sanity.imageAsset` / `sanity.fileAsset` document whose id encodes the hash, the dimensions and the
 * extension (`image-<sha1>-<w>x<h>-<ext>`: @sanity/image-url reads the size from it).
 */

export type AssetKind = 'images' | 'files'

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
}

const EXTENSION = /^[a-z0-9]{1,10}$/

/** Where asset bytes live: a folder, or memory for --memory servers. */
export class AssetFiles {
  private readonly folder: string | undefined
  private readonly memory = new Map<string, Buffer>()

  constructor(folder?: string) {
    this.folder = folder
    if (folder) mkdirSync(folder, { recursive: true })
  }

  /** Written and fsynced before the asset document is committed, so a document never points at nothing. */
  write(name: string, bytes: Buffer) {
    if (!this.folder) return void this.memory.set(name, bytes)
    const path = join(this.folder, name)
    if (existsSync(path)) return
    const fd = openSync(path, 'w')
    writeSync(fd, bytes)
    fsyncSync(fd)
    closeSync(fd)
  }

  /** Whether a file is stored, without reading it (a cached transform needs no original). */
  has(name: string): boolean {
    return this.folder ? existsSync(join(this.folder, name)) : this.memory.has(name)
  }

  read(name: string): Buffer | null {
    if (!this.folder) return this.memory.get(name) ?? null
    const path = join(this.folder, name)
    return existsSync(path) ? readFileSync(path) : null
  }
}

export type AssetContext = { projectId: string; dataset: string; publicUrl: string }

/** The path of an asset under the server root (`images/<project>/<dataset>/<file>`). */
export function assetPath(kind: AssetKind, context: AssetContext, file: string): string {
  return `${kind}/${context.projectId}/${context.dataset}/${file}`
}

/**
 * Reads an upload and describes it as the Content Lake would. Images must be decodable (their size
 * is part of the id); files are taken as they are.
 */
export function describeUpload(
  kind: AssetKind,
  bytes: Buffer,
  context: AssetContext,
  options: { filename?: string | null; contentType?: string | null },
): { document: SanityDocument; storedName: string } {
  if (bytes.length === 0) throw badRequest('The upload is empty')
  const sha1hash = createHash('sha1').update(bytes).digest('hex')
  // The fields every asset document has, whatever its kind.
  const common = (storedName: string, extension: string, mimeType: string) => {
    const path = assetPath(kind, context, storedName)
    return {
      assetId: sha1hash,
      extension,
      mimeType,
      originalFilename: options.filename ? options.filename.slice(0, 255) : undefined,
      path,
      sha1hash,
      size: bytes.length,
      uploadId: randomUUID().replace(/-/g, ''),
      url: `${context.publicUrl}/${path}`,
    }
  }
  if (kind === 'images') {
    let size: { width?: number; height?: number; type?: string }
    try {
      size = imageSize(new Uint8Array(bytes))
    } catch {
      throw badRequest('Invalid image, could not read metadata', 'invalidImageError')
    }
    const extension = size.type === 'jpeg' ? 'jpg' : size.type
    const width = Math.round(size.width ?? 0)
    const height = Math.round(size.height ?? 0)
    if (!extension || !IMAGE_TYPES[extension] || !width || !height)
      throw badRequest('Invalid image, could not read metadata', 'invalidImageError')
    // From the header alone, before anything decodes it: a few KB of PNG can declare 16000×16000.
    if (width * height > MAX_INPUT_PIXELS) {
      const megapixels = (width * height) / 1e6
      const side = Math.floor(Math.sqrt(MAX_INPUT_PIXELS))
      throw badRequest(
        `Image too large: ${width}×${height} pixels (${megapixels.toFixed(1)} megapixels); the local Content Lake takes images of at most ${MAX_INPUT_PIXELS / 1e6} megapixels (e.g. ${side}×${side}). Scale it down and upload it again.`,
        'invalidImageError',
      )
    }
    const storedName = `${sha1hash}-${width}x${height}.${extension}`
    return {
      storedName,
      document: {
        _id: `image-${sha1hash}-${width}x${height}-${extension}`,
        _type: 'sanity.imageAsset',
        ...common(storedName, extension, IMAGE_TYPES[extension]),
        metadata: {
          _type: 'sanity.imageMetadata',
          dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height },
          hasAlpha: extension !== 'jpg',
          isOpaque: extension === 'jpg',
        },
      },
    }
  }
  const fromName = options.filename?.match(/\.([a-zA-Z0-9]{1,10})$/)?.[1]?.toLowerCase()
  const extension = fromName && EXTENSION.test(fromName) ? fromName : 'bin'
  const storedName = `${sha1hash}.${extension}`
  const mimeType =
    options.contentType && /^[\w.+-]+\/[\w.+-]+$/.test(options.contentType)
      ? options.contentType
      : 'application/octet-stream'
  return {
    storedName,
    document: {
      _id: `file-${sha1hash}-${extension}`,
      _type: 'sanity.fileAsset',
      ...common(storedName, extension, mimeType),
    },
  }
}

/** Content type of a stored asset file, from its extension. */
export function contentTypeOf(file: string, fallback = 'application/octet-stream'): string {
  const extension = file.split('.').pop() ?? ''
  return IMAGE_TYPES[extension] ?? fallback
}
