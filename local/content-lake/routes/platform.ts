import { sendJson, type Request } from '../../http-kit.ts'
import type { Route } from './route.ts'

/*
 * What the Studio asks sanity.io beyond the dataset: the ping, features, announcements, trials, upsells,
 * the help menu's links, scheduled publishing, telemetry consent and the CORS check. Offline there are
 * none of these: each is answered as "nothing" rather than 404, so the browser console stays clean.
 */
const answers: Record<string, (second: string | undefined) => unknown> = {
  features: () => [],
  journey: (second) => (second === 'announcements' ? [] : second === 'trial' ? {} : null),
  help: () => ({ resources: [] }),
  schedules: () => ({ schedules: [] }),
  intake: (second) => (second === 'telemetry-status' ? { status: 'denied' } : {}),
}

export const ping: Route = {
  matches: ({ path, segments: [first] }) => path === '/' || first === 'ping',
  serve: ({ json }, { projectId, dataset }) => json(200, { name: 'local-content-lake', projectId, dataset }),
}

/** TLS connections come from browsers (the Studio); plain HTTP from Node clients on this machine. */
const overTls = (request: Request) => (request.socket as { encrypted?: boolean } | undefined)?.encrypted === true

/**
 * GET /_twin, not a hosted endpoint: which twin answers on this port, with its data folder and process,
 * so that a start command can tell its own running twin from another checkout's (which keeps another
 * data folder) before reusing it. For Node clients only: on the plain-HTTP side, without CORS headers
 * and unversioned, so no page reads a local path or a pid from it.
 */
export const twinIdentity: Route = {
  matches: ({ request, method, path, versioned }) =>
    method === 'GET' && !versioned && path === '/_twin' && !overTls(request),
  serve: ({ response }, lake) => sendJson(response, 200, lake.twin, { 'Cache-Control': 'no-store' }),
}

export const platform: Route = {
  matches: ({ segments: [first, second] }) =>
    Object.hasOwn(answers, first ?? '') || (first === 'check' && second === 'cors'),
  serve: ({ cors, segments: [first, second], json }) => {
    if (first === 'check')
      return json(200, { result: { allowed: Boolean(cors['Access-Control-Allow-Origin']), withCredentials: true } })
    json(200, answers[first](second))
  },
}
