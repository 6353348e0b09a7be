import { badRequest } from '../content-lake-error.ts'
import { paramsFromSearch } from '../query.ts'
import { dataEndpoint, type Route } from './route.ts'

/** GET /data/live/events/<dataset>: the live-content API's stream of sync tags (drafts with a token). */
export const liveEvents: Route = {
  matches: ({ method, segments }) =>
    segments[0] === 'data' &&
    segments[1] === 'live' &&
    segments[2] === 'events' &&
    segments.length === 4 &&
    method === 'GET',
  serve: ({ request, response, url, cors, segments }, lake) => {
    lake.requireDataset(segments[3])
    const includeDrafts = url.searchParams.get('includeDrafts') === 'true'
    const withToken = lake.access.authenticate(request, includeDrafts)
    // Counted and bounded with the listeners (stream-gate.ts): null when refused with a 429.
    const sink = lake.streams.open(request, response, cors, withToken)
    if (sink) lake.live.open({ includeDrafts }, sink)
  },
}

/** GET /data/listen/<dataset>?query=…: mutations to the documents a query selects, as they commit. */
export const dataListen: Route = {
  matches: dataEndpoint('listen', 'GET'),
  serve: ({ request, response, url, cors, segments }, lake) => {
    lake.requireDataset(segments[2])
    const editor = lake.access.authenticate(request, false)
    const query = url.searchParams.get('query')
    if (!query) throw badRequest('The "query" parameter is required', 'queryParseError')
    const flag = (name: string, fallback: boolean) => {
      const value = url.searchParams.get(name)
      return value === null ? fallback : value !== 'false'
    }
    const listenOptions = {
      query,
      params: paramsFromSearch(url.searchParams),
      authenticated: editor,
      includeResult: flag('includeResult', true),
      includePreviousRevision: flag('includePreviousRevision', false),
      includeMutations: flag('includeMutations', true),
      includeAllVersions: flag('includeAllVersions', false),
      effectFormat: url.searchParams.get('effectFormat'),
    }
    lake.listeners.prepare(listenOptions)
    const sink = lake.streams.open(request, response, cors, editor)
    if (sink) lake.listeners.open(listenOptions, sink)
  },
}
