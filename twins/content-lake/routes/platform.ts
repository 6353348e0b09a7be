import { sendJson, type Request } from '../../http-kit.ts'
import type { Route } from './route.ts'

/*
 * What the Studio asks sanity.io beyond the dataset: the ping, features, announcements, trials, upsells,
 * the help menu's links, scheduled publishing, telemetry consent and the CORS check. The project is
 * answered as one on a plan without releases, scheduled drafts or publishing, comments and tasks
 * (`/features` lists none of them), so the Studio shows those features as upsells, disabled, each
 * with its `/journey/<feature>` dialog (below). Everything else is answered as "nothing" rather than
 * 404, so the browser console stays clean.
 */

/** The features the Studio offers as upsells when `/features` leaves them out: `/journey/<key>`. */
const UPSELLS: Record<string, { type: string; feature: string }> = {
  'content-releases': { type: 'releasesUpsell', feature: 'Content Releases' },
  'scheduled-drafts': { type: 'scheduledDraftsUpsell', feature: 'Scheduled drafts' },
  'scheduled-publishing': { type: 'scheduledPublishingUpsell', feature: 'Scheduled Publishing' },
  comments: { type: 'commentsUpsell', feature: 'Comments' },
  tasks: { type: 'tasksUpsell', feature: 'Tasks' },
}

const block = (key: string, style: 'h2' | 'normal', text: string) => ({
  _type: 'block',
  _key: key,
  style,
  markDefs: [],
  children: [{ _type: 'span', _key: `${key}-text`, marks: [], text }],
})

/**
 * An upsell dialog's content, in the shape the Studio renders (sanity's `UpsellData`: Portable Text
 * `descriptionText`, `ctaButton` and `secondaryButton` `{text, url}`, `image` or null), saying what
 * is true here: the feature needs a hosted project on a plan that has it.
 */
export function upsellPayload(key: string) {
  const upsell = UPSELLS[key]
  return {
    _id: `local.upsell.${key}`,
    _type: upsell.type,
    _rev: 'local',
    _createdAt: '2026-01-01T00:00:00Z',
    _updatedAt: '2026-01-01T00:00:00Z',
    id: `${key}-upsell`,
    image: null,
    descriptionText: [
      block('title', 'h2', `${upsell.feature} is not available here`),
      block(
        'body',
        'normal',
        `${upsell.feature} needs a hosted Sanity project on a plan that includes it. The local Content Lake, which this Studio uses offline, does not serve it.`,
      ),
    ],
    ctaButton: { text: 'See the plans', url: 'https://www.sanity.io/pricing' },
    secondaryButton: { text: 'Sanity documentation', url: 'https://www.sanity.io/docs' },
  }
}

const answers: Record<string, (second: string | undefined) => unknown> = {
  features: () => [],
  journey: (second) =>
    second === 'announcements'
      ? []
      : second === 'trial'
        ? {}
        : second !== undefined && Object.hasOwn(UPSELLS, second)
          ? upsellPayload(second)
          : null,
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
