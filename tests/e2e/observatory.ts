import type { APIRequestContext, APIResponse } from '@playwright/test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/*
 * MDN HTTP Observatory's own analyzer and grader (@mdn/mdn-http-observatory), run on a response this
 * suite fetched. The test command installs the package on its own (scripts/lib/observatory.ts: its
 * install script would download a certificate bundle and the HSTS preload list, so the project's
 * `npm install` does not carry it) and passes its folder in OBSERVATORY_DIR.
 *
 * What the package's `scan(hostname)` does after fetching, done here on our response: every test of
 * ALL_TESTS, then the score (100 + each modifier, extra credit only when the uncurved score is ≥ 90)
 * and the grade. The site is graded as it is served behind a TLS front: the page's URL is https, the
 * front answers http with a redirect to the same https URL, the certificate is valid. The HSTS preload
 * list is empty (not downloaded), so no score holds a preload bonus.
 */

export interface ObservatoryResponse {
  status: number
  headers: Record<string, string | string[]>
  body: string
}

export interface Grade {
  score: number
  grade: string
  /** Each test's outcome and its score modifier. */
  tests: Record<string, { result: string; modifier: number; pass: boolean }>
}

type Output = { result: string | null; pass: boolean | null; constructor: { name: string } }
interface Observatory {
  ALL_TESTS: ((requests: unknown) => Output)[]
  getScoreModifier: (expectation: string) => number
  getGradeForScore: (score: number) => { score: number; grade: string }
  MINIMUM_SCORE_FOR_EXTRA_CREDIT: number
  Requests: new (hostname: string) => {
    session: unknown
    resources: { path: string | null }
    responses: Record<string, unknown> & { httpRedirects: unknown[]; httpsRedirects: unknown[] }
  }
  parseHttpEquivHeaders: (html: string, baseUrl: string) => Map<string, string[]>
}

let loaded: Promise<Observatory> | undefined

export function loadObservatory(): Promise<Observatory> {
  const dir = process.env.OBSERVATORY_DIR
  if (!dir)
    throw new Error('OBSERVATORY_DIR is not set: run the browser tests through `npm test`, which installs the grader')
  const root = join(dir, 'node_modules', '@mdn', 'mdn-http-observatory')
  if (!existsSync(root)) throw new Error(`@mdn/mdn-http-observatory is not installed in ${dir}`)
  const load = (path: string) => import(pathToFileURL(join(root, path)).href)
  loaded ??= Promise.all([
    load('src/constants.js'),
    load('src/grader/grader.js'),
    load('src/grader/charts.js'),
    load('src/types.js'),
    load('src/retriever/utils.js'),
  ]).then(([constants, grader, charts, types, utils]) => ({
    ALL_TESTS: constants.ALL_TESTS,
    getScoreModifier: grader.getScoreModifier,
    getGradeForScore: grader.getGradeForScore,
    MINIMUM_SCORE_FOR_EXTRA_CREDIT: charts.MINIMUM_SCORE_FOR_EXTRA_CREDIT,
    Requests: types.Requests,
    parseHttpEquivHeaders: utils.parseHttpEquivHeaders,
  }))
  return loaded
}

/** Grades `response`, served at `url` (https, behind the front); `cors` is the same URL fetched with
 *  an Origin header, as the Observatory fetches it. */
export async function grade(url: URL, response: ObservatoryResponse, cors: ObservatoryResponse): Promise<Grade> {
  const observatory = await loadObservatory()
  const axiosLike = (r: ObservatoryResponse) => ({
    headers: r.headers,
    status: r.status,
    statusText: '',
    data: r.body,
    verified: true,
    request: { headers: {} },
    config: { headers: {} },
  })
  const requests = new observatory.Requests(url.hostname)
  requests.session = { url }
  requests.resources.path = response.body
  const auto = { ...axiosLike(response), httpEquiv: observatory.parseHttpEquivHeaders(response.body, url.href) }
  Object.assign(requests.responses, {
    auto,
    https: auto,
    http: auto,
    cors: axiosLike(cors),
    httpRedirects: [
      { url: new URL(url.href.replace(/^https:/, 'http:')), status: 301 },
      { url, status: response.status },
    ],
    httpsRedirects: [{ url, status: response.status }],
  })

  let scoreWithExtraCredit = 100
  let uncurvedScore = 100
  const tests: Grade['tests'] = {}
  for (const test of observatory.ALL_TESTS) {
    const output = test(requests)
    if (!output.result) continue
    const modifier = observatory.getScoreModifier(output.result)
    scoreWithExtraCredit += modifier
    if (modifier < 0) uncurvedScore += modifier
    tests[output.constructor.name] = { result: output.result, modifier, pass: Boolean(output.pass) }
  }
  const score = uncurvedScore >= observatory.MINIMUM_SCORE_FOR_EXTRA_CREDIT ? scoreWithExtraCredit : uncurvedScore
  return { ...observatory.getGradeForScore(score), tests }
}

/** A Playwright response as the grader reads it (repeated headers kept as lists). */
export async function toObservatory(response: APIResponse): Promise<ObservatoryResponse> {
  const headers: Record<string, string | string[]> = {}
  for (const { name, value } of response.headersArray()) {
    const key = name.toLowerCase()
    const known = headers[key]
    headers[key] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value]
  }
  return { status: response.status(), headers, body: await response.text() }
}

/** Fetches `path` as the Observatory does (plain, then with an Origin) and grades it as served over https. */
export async function gradeOf(
  request: APIRequestContext,
  baseURL: string,
  path: string,
  method: 'GET' | 'POST' = 'GET',
) {
  // A connection of its own for each fetch, as the Observatory's scanner opens one: a kept-alive one
  // could be closed by the server under test at the moment it is reused (plain `next start` keeps idle
  // connections 5 s, Node's default), and the grade would be of a reset, not of the page.
  const fetchIt = (headers: Record<string, string> = {}) =>
    request.fetch(`${baseURL}${path}`, { method, maxRedirects: 0, headers: { Connection: 'close', ...headers } })
  const response = await toObservatory(await fetchIt())
  const cors = await toObservatory(await fetchIt({ Origin: 'https://http-observatory.security.mozilla.org' }))
  const url = new URL(path, baseURL.replace(/^http:/, 'https:'))
  return { response, result: await grade(url, response, cors) }
}
