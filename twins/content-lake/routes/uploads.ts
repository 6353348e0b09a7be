import { LOCAL_EDITOR } from '../content-lake-settings.ts'
import { header, readBody } from '../../http-kit.ts'
import type { Route } from './route.ts'

/** The largest asset an upload may carry (a larger one gets 413). */
export const MAX_ASSET_BYTES = 50 * 1024 * 1024

/** POST /assets/images|files/<dataset>: an upload becomes an asset document (the editor's token only). */
export const uploads: Route = {
  matches: ({ method, segments: [first, kind] }) =>
    first === 'assets' && (kind === 'images' || kind === 'files') && method === 'POST',
  serve: async ({ request, url, segments: [, kind, dataset], json }, lake) => {
    lake.requireDataset(dataset)
    lake.access.requireEditor(request)
    const bytes = await readBody(request, MAX_ASSET_BYTES)
    const document = await lake.writer.ingestAsset(
      kind as 'images' | 'files',
      bytes,
      url.searchParams.get('filename'),
      header(request, 'content-type') ?? null,
      LOCAL_EDITOR.id,
    )
    json(200, { document })
  },
}
