import { contentTypeOf } from '../assets.ts'
import { header, send } from '../../http-kit.ts'
import { gatewayError } from '../content-lake-error.ts'
import { ClientGoneError } from '../image-cdn.ts'
import { isIdentity } from '../image-params.ts'
import type { Route } from './route.ts'

/** `Content-Disposition` for `dl`: its value as the file name, or the asset's own. */
function attachment(name: string, file: string): string {
  const chosen = name || file
  const ascii = chosen.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(chosen)}`
}

/**
 * GET /images|files/<project>/<dataset>/<file>: asset bytes, public like the CDN's (no version
 * prefix); an image with transform parameters (image-params.ts) is transformed as the CDN does.
 */
export const assetFiles: Route = {
  matches: ({ versioned, method, segments: [kind], segments }) =>
    !versioned && (kind === 'images' || kind === 'files') && method === 'GET' && segments.length === 4,
  serve: async ({ request, url, response, cors, segments: [kind, project, dataset, file] }, lake) => {
    if (project !== lake.projectId) throw gatewayError(404, 'Not Found', 'Unknown project')
    lake.requireDataset(dataset)
    const valid = /^[a-zA-Z0-9-]+\.[a-z0-9]{1,10}$/.test(file)
    const headers: Record<string, string> = {
      ...cors,
      'Cache-Control': 'public, max-age=31536000, immutable',
      // An uploaded SVG is shown, never run: no scripts, no outside requests.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': cors['Access-Control-Allow-Origin'] ?? '*',
    }
    const download = url.searchParams.has('dl') ? attachment(url.searchParams.get('dl') ?? '', file) : null
    if (download) headers['Content-Disposition'] = download
    // An SVG scales by itself: served as it is unless a raster format is asked for (fm).
    const vector = file.endsWith('.svg') && !url.searchParams.has('fm')
    if (kind === 'images' && valid && !vector && !isIdentity(url.searchParams)) {
      // A missing asset is a 404 before its parameters are looked at, as on the CDN.
      if (!lake.files.has(file)) throw gatewayError(404, 'Not Found', 'Asset not found')
      // A client that goes away takes its transform out of the line (image-cdn.ts), unless others wait for it.
      const gone = new AbortController()
      response.once('close', () => gone.abort())
      let image
      try {
        image = await lake.images.transform(
          file,
          url.searchParams,
          header(request, 'accept') ?? '',
          () => lake.files.read(file),
          { client: request.socket?.remoteAddress ?? '', signal: gone.signal },
        )
      } catch (error) {
        if (error instanceof ClientGoneError) return
        throw error
      }
      // The answer to auto=format depends on Accept: a shared cache must key on it.
      if (image.params.autoFormat && !image.params.fm) headers.Vary = 'Accept'
      return send(response, 200, image.bytes, { ...headers, 'Content-Type': image.contentType })
    }
    const bytes = valid ? lake.files.read(file) : null
    if (!bytes) throw gatewayError(404, 'Not Found', 'Asset not found')
    send(response, 200, bytes, { ...headers, 'Content-Type': contentTypeOf(file) })
  },
}
