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

export const platform: Route = {
  matches: ({ segments: [first, second] }) => Object.hasOwn(answers, first ?? '') || (first === 'check' && second === 'cors'),
  serve: ({ cors, segments: [first, second], json }) => {
    if (first === 'check') return json(200, { result: { allowed: Boolean(cors['Access-Control-Allow-Origin']), withCredentials: true } })
    json(200, answers[first](second))
  },
}
