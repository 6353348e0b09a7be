import type { SanityDocument } from '../document-store.ts'
import { send } from '../../http-kit.ts'
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

/**
 * GET /data/references/<dataset>/documents/<id>/to: the other datasets' references to a document,
 * which the Studio asks for (`excludeInternalReferences=true`) before a delete; it finds this
 * dataset's own with a query. There is one dataset here: none.
 */
export const dataReferences: Route = {
  matches: dataEndpoint('references', 'GET'),
  serve: ({ request, segments: [, , dataset], json }, lake) => {
    lake.requireDataset(dataset)
    lake.access.authenticate(request, true)
    json(200, { totalCount: 0, references: [] })
  },
}
