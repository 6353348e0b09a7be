import { contentTypeOf } from '../assets.ts'
import { send } from '../../http-kit.ts'
import { gatewayError } from '../content-lake-error.ts'
import type { Route } from './route.ts'

/** GET /images|files/<project>/<dataset>/<file>: asset bytes, public like the CDN's (no version prefix). */
export const assetFiles: Route = {
  matches: ({ versioned, method, segments: [kind], segments }) =>
    !versioned && (kind === 'images' || kind === 'files') && method === 'GET' && segments.length === 4,
  serve: ({ response, cors, segments: [, project, dataset, file] }, lake) => {
    if (project !== lake.projectId) throw gatewayError(404, 'Not Found', 'Unknown project')
    lake.requireDataset(dataset)
    const bytes = /^[a-zA-Z0-9-]+\.[a-z0-9]{1,10}$/.test(file) ? lake.files.read(file) : null
    if (!bytes) throw gatewayError(404, 'Not Found', 'Asset not found')
    send(response, 200, bytes, {
      ...cors,
      'Content-Type': contentTypeOf(file),
      'Cache-Control': 'public, max-age=31536000, immutable',
      // An uploaded SVG is shown, never run: no scripts, no outside requests.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': cors['Access-Control-Allow-Origin'] ?? '*',
    })
  },
}
