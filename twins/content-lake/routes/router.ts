import { gatewayError } from '../content-lake-error.ts'
import { assetFiles } from './asset-files.ts'
import { auth } from './auth.ts'
import { dataDoc, dataExport, dataReferences } from './data-documents.ts'
import { dataHistory } from './data-history.ts'
import { dataQuery } from './data-query.ts'
import { dataListen, liveEvents } from './data-streams.ts'
import { dataActions, dataMutate } from './data-writes.ts'
import type { Exchange } from './exchange.ts'
import { ping, platform, twinIdentity } from './platform.ts'
import { projects } from './projects.ts'
import type { Lake, Route } from './route.ts'
import { uploads } from './uploads.ts'
import { users } from './users.ts'

/** Every endpoint the local Content Lake serves (twins/content-lake/README.md lists them); at most one matches a request. */
const ROUTES: Route[] = [
  assetFiles,
  ping,
  twinIdentity,
  auth,
  users,
  projects,
  platform,
  liveEvents,
  dataQuery,
  dataDoc,
  dataMutate,
  dataActions,
  dataListen,
  dataExport,
  dataHistory,
  dataReferences,
  uploads,
]

export async function routeRequest(exchange: Exchange, lake: Lake): Promise<void> {
  const route = ROUTES.find((candidate) => candidate.matches(exchange, lake))
  if (!route) throw gatewayError(404, 'Not Found', `No such endpoint: ${exchange.method} ${exchange.path}`)
  await route.serve(exchange, lake)
}
