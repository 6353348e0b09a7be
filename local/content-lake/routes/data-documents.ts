import type { SanityDocument } from '../document-store.ts'
import { send } from '../../http-kit.ts'
import { gatewayError } from '../content-lake-error.ts'
import { visibleTo } from '../query.ts'
import { dataEndpoint, type Route } from './route.ts'

/** GET /data/doc/<dataset>/<id,id…>: documents by id, those the token may not see listed as omitted. */
export const dataDoc: Route = {
  matches: dataEndpoint('doc', 'GET', 1),
  serve: ({ request, segments: [, , dataset, idList], json }, lake) => {
    lake.requireDataset(dataset)
    const visible = visibleTo(lake.access.authenticate(request, false))
    const documents: SanityDocument[] = []
    const omitted: { id: string; reason: string }[] = []
    for (const id of idList.split(',').filter(Boolean)) {
      const doc = lake.store.get(id)
      if (doc && visible(doc)) documents.push(doc)
      else omitted.push({ id, reason: doc ? 'permission' : 'existence' })
    }
    json(200, { documents, omitted })
  },
}

/** GET /data/export/<dataset>: every visible document as NDJSON (`sanity dataset export`). */
export const dataExport: Route = {
  matches: dataEndpoint('export', 'GET'),
  serve: ({ request, response, url, cors, segments }, lake) => {
    lake.requireDataset(segments[2])
    const types = url.searchParams.get('types')?.split(',').filter(Boolean)
    const docs = lake.store
      .all()
      .filter(visibleTo(lake.access.authenticate(request, false)))
      .filter((doc) => !types || types.includes(doc._type))
    send(response, 200, docs.map((doc) => JSON.stringify(doc)).join('\n') + (docs.length ? '\n' : ''), {
      ...cors,
      'Content-Type': 'application/x-ndjson',
    })
  },
}

/** /data/history/… and /data/references/…: no history is kept, so the Studio's history panes show nothing to restore. */
export const dataHistory: Route = {
  matches: (exchange) => dataEndpoint('history', null)(exchange) || dataEndpoint('references', 'GET')(exchange),
  serve: ({ request, response, method, path, cors, segments: [, endpoint, dataset, kind], json }, lake) => {
    lake.requireDataset(dataset)
    lake.access.authenticate(request, true)
    if (endpoint === 'references') return json(200, { totalCount: 0, references: [] })
    if (kind === 'events') return json(200, { events: {}, nextCursor: '' })
    if (kind === 'transactions') return send(response, 200, '', { ...cors, 'Content-Type': 'application/x-ndjson' })
    if (kind === 'documents') return json(200, { documents: [] })
    throw gatewayError(404, 'Not Found', `No such endpoint: ${method} ${path}`)
  },
}
