import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_EDITOR, LOCAL_VIEWER_ROBOT } from './content-lake-settings.ts'
import { MAX_PENDING_SIGN_INS, SIGN_IN_TTL_MS, SignInSessions } from './sign-in.ts'
import type { ContentLake } from './start-content-lake.ts'
import { startTestLake, type TestLake } from './test-lake.ts'

/*
 * What a Studio with Sanity's default settings asks of the project's API, answered as hosted Sanity
 * answers a project on a plan without releases, comments, tasks or scheduling: its sign-in (the local
 * provider, `#sid=`, `/auth/fetch`, `/auth/id`), `/features`, the upsells and the comments add-on
 * dataset. The documents: content-lake.test.ts; tokens and CORS: content-lake-edges.test.ts.
 */

let test: TestLake
let lake: ContentLake
let raw: TestLake['raw']
let auth: TestLake['auth']
beforeAll(async () => {
  test = await startTestLake()
  ;({ lake, raw, auth } = test)
})
afterAll(() => test?.close())

const SITE = 'http://localhost:3000'
/** The address the Studio's provider button opens (sanity's createHrefForProvider). */
const loginPath = (origin: string) =>
  `/v1/auth/login/local?${new URLSearchParams({ origin, projectId: 'local', type: 'dual' })}`
/** The sign-in page's redirect, not followed. */
const signIn = (origin: string) => raw(loginPath(origin), { redirect: 'manual' })
const sidOf = (location: string | null) => /#sid=([^&]{20,})$/.exec(location ?? '')?.[1]

describe('signing in', () => {
  it('lists one provider, the local editor, whose page is on this lake at localhost', async () => {
    const response = await raw('/v2026-05-04/auth/providers')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      thirdPartyLogin: false,
      sso: { saml: false },
      providers: [
        { name: 'local', title: LOCAL_EDITOR.name, url: `https://localhost:${lake.port}/v1/auth/login/local` },
      ],
    })
  })

  it("sends the browser back to the Studio's address with a session id in the fragment", async () => {
    const response = await signIn(`${SITE}/studio`)
    expect(response.status).toBe(302)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const location = response.headers.get('location')
    expect(location).toMatch(/^http:\/\/localhost:3000\/studio#sid=[A-Za-z0-9_-]{43}$/)
    expect(sidOf(location)).not.toBe(sidOf((await signIn(`${SITE}/studio`)).headers.get('location')))
  })

  it('refuses to send a session anywhere but an allowed origin', async () => {
    const foreign = await signIn('https://evil.example/studio')
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('location')).toBeNull()
    expect(await foreign.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' })
    expect((await signIn('not a url')).status).toBe(400)
    expect((await raw('/v1/auth/login/local', { redirect: 'manual' })).status).toBe(400)
  })

  it('returns into the Studio only, and never to an address with credentials', async () => {
    for (const elsewhere of [
      `${SITE}/`,
      `${SITE}/contact`,
      `${SITE}/studio-fake`,
      `${SITE}/studio/../admin-panel-2024`,
    ]) {
      const response = await signIn(elsewhere)
      expect([elsewhere, response.status, response.headers.get('location')]).toEqual([elsewhere, 403, null])
    }
    const credentials = await signIn('http://user:pass@localhost:3000/studio')
    expect([credentials.status, credentials.headers.get('location')]).toEqual([400, null])
    const deeper = await signIn(`${SITE}/studio/structure/service`)
    expect(deeper.headers.get('location')).toMatch(/^http:\/\/localhost:3000\/studio\/structure\/service#sid=/)
  })

  it('trades a session id for the editor token once', async () => {
    const sid = sidOf((await signIn(`${SITE}/studio`)).headers.get('location'))!
    const exchange = () => raw(`/v2026-05-04/auth/fetch?sid=${sid}`, { headers: { Origin: SITE } })
    const first = await exchange()
    expect(first.status).toBe(200)
    expect(first.headers.get('access-control-allow-origin')).toBe(SITE)
    expect(first.headers.get('access-control-allow-credentials')).toBe('true')
    expect(first.headers.get('cache-control')).toBe('no-store')
    expect(await first.json()).toEqual({ token: lake.token })
    const second = await exchange()
    expect(second.status).toBe(401)
    expect(await second.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    expect((await raw('/v2026-05-04/auth/fetch?sid=never-issued-never-issued')).status).toBe(401)
  })

  it('tells a token session from none at /auth/id (401, never 404)', async () => {
    const withToken = await raw('/v2026-05-04/auth/id', { headers: auth() })
    expect(withToken.status).toBe(200)
    expect(await withToken.json()).toEqual({ id: LOCAL_EDITOR.id })
    // The site's viewer token is its own robot user, never the editor.
    const viewer = { Authorization: `Bearer ${lake.viewerToken}` }
    expect(await (await raw('/v2026-05-04/auth/id', { headers: viewer })).json()).toEqual({ id: LOCAL_VIEWER_ROBOT.id })
    expect(await (await raw('/v2026-05-04/users/me', { headers: viewer })).json()).toMatchObject({
      id: 'local-site-viewer',
      role: 'viewer',
    })
    expect((await raw('/v2026-05-04/auth/id', { headers: { Origin: SITE } })).status).toBe(401)
    expect((await raw('/v2026-05-04/auth/id', { headers: { Authorization: 'Bearer stale' } })).status).toBe(401)
  })

  it('marks an unknown token as "session not found", so the Studio signs out', async () => {
    const response = await raw('/v2026-05-04/users/me', { headers: { Authorization: 'Bearer stale' } })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ statusCode: 401, errorCode: 'SIO-401-ANF' })
  })
})

describe('session ids', () => {
  it('expire after two minutes and keep only the newest', () => {
    let now = 0
    const sessions = new SignInSessions(() => now)
    const early = sessions.issue()
    now = SIGN_IN_TTL_MS
    expect(sessions.redeem(early)).toBe(false)
    const ids = Array.from({ length: MAX_PENDING_SIGN_INS + 5 }, () => sessions.issue())
    expect(sessions.size).toBe(MAX_PENDING_SIGN_INS)
    expect(sessions.redeem(ids[0])).toBe(false)
    expect(sessions.redeem(ids.at(-1)!)).toBe(true)
    expect(sessions.redeem(ids.at(-1)!)).toBe(false)
  })
})

describe('features the plan leaves out', () => {
  it('lists no feature, so the Studio shows releases, comments, tasks and scheduling as upsells', async () => {
    expect(await (await raw('/v2025-02-19/features', { headers: auth() })).json()).toEqual([])
  })

  it.each(['comments', 'tasks', 'scheduled-drafts', 'content-releases', 'scheduled-publishing'])(
    'answers /journey/%s with an upsell dialog that says why',
    async (feature) => {
      const response = await raw(`/v2025-02-19/journey/${feature}`, { headers: auth() })
      expect(response.status).toBe(200)
      const upsell = await response.json()
      expect(upsell).toMatchObject({
        id: `${feature}-upsell`,
        image: null,
        ctaButton: { text: expect.any(String), url: 'https://www.sanity.io/pricing' },
        secondaryButton: { text: expect.any(String), url: 'https://www.sanity.io/docs' },
      })
      expect(upsell.descriptionText.length).toBeGreaterThan(0)
      for (const block of upsell.descriptionText) {
        expect(block).toMatchObject({ _type: 'block', _key: expect.any(String), markDefs: [] })
        for (const span of block.children) expect(span).toMatchObject({ _type: 'span', text: expect.any(String) })
      }
      expect(JSON.stringify(upsell.descriptionText)).toMatch(/hosted Sanity project/)
    },
  )

  it('has no comments add-on dataset, and still lists the content dataset', async () => {
    const datasets = (query = '') => raw(`/v2025-02-19/projects/local/datasets${query}`, { headers: auth() })
    expect(await (await datasets('?datasetProfile=comments&addonFor=production')).json()).toEqual([])
    expect(await (await datasets()).json()).toEqual([{ name: 'production', aclMode: 'public' }])
  })
})
