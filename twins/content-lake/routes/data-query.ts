import { badRequest } from '../content-lake-error.ts'
import { LOCAL_EDITOR } from '../content-lake-settings.ts'
import { readJson } from './exchange.ts'
import { MAX_QUERY_BODY_BYTES, paramsFromSearch, parsePerspective } from '../query.ts'
import { dataEndpoint, type Route } from './route.ts'

/** GET|POST /data/query/<dataset>: a GROQ query, run on a query thread within its time limit. */
export const dataQuery: Route = {
  matches: (exchange) => dataEndpoint('query', 'GET', 0)(exchange) || dataEndpoint('query', 'POST', 0)(exchange),
  serve: async ({ request, response, method, url, apiVersion, segments, json }, lake) => {
    lake.requireDataset(segments[2])
    const started = performance.now()
    const editor = lake.access.authenticate(request, false)
    let query: string | null = url.searchParams.get('query')
    let params = paramsFromSearch(url.searchParams)
    if (method === 'POST') {
      const tooLarge = `Query size exceeded: the query and its parameters are over ${MAX_QUERY_BODY_BYTES} bytes (the hosted API's limit)`
      const body = (await readJson(request, MAX_QUERY_BODY_BYTES, tooLarge)) as {
        query?: unknown
        params?: unknown
      } | null
      query = typeof body?.query === 'string' ? body.query : null
      params = body?.params && typeof body.params === 'object' ? (body.params as Record<string, unknown>) : {}
    }
    if (!query) throw badRequest('The "query" parameter is required', 'queryParseError')
    const perspective = parsePerspective(url.searchParams.get('perspective'), apiVersion)
    const sourceMap = url.searchParams.get('resultSourceMap')
    // A client that goes away stops its query (its thread is replaced).
    const gone = new AbortController()
    response.on('close', () => gone.abort())
    const outcome = await lake.queries.run(
      {
        query,
        params,
        perspective,
        authenticated: editor,
        identity: editor ? LOCAL_EDITOR.id : '',
        sourceMap:
          sourceMap && sourceMap !== 'false'
            ? sourceMap === 'withKeyArraySelector'
              ? 'withKeyArraySelector'
              : 'plain'
            : undefined,
      },
      gone.signal,
    )
    const body: Record<string, unknown> = {
      result: outcome.result,
      syncTags: [lake.syncTag],
      ms: Math.round(performance.now() - started),
    }
    if (outcome.resultSourceMap) body.resultSourceMap = outcome.resultSourceMap
    if (url.searchParams.get('returnQuery') !== 'false') body.query = query
    json(200, body)
  },
}
