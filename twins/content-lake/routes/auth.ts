import { header, send, sendJson, type Request } from '../../http-kit.ts'
import { gatewayError } from '../content-lake-error.ts'
import { LOCAL_EDITOR } from '../content-lake-settings.ts'
import type { Exchange } from './exchange.ts'
import type { Lake, Route } from './route.ts'

const isLoopback = (request: Request) => /^(127\.|::1$|::ffff:127\.)/.test(request.socket?.remoteAddress ?? '')

/** The one sign-in provider: the local editor, on this machine only. */
const PROVIDER = 'local'

/**
 * The Studio's sign-in page for the local provider, as hosted Sanity's provider pages end: the browser
 * comes with `?origin=<the Studio's address>&projectId=…&type=dual` and leaves for `<origin>#sid=<id>`,
 * an id the Studio trades for the editor token at /auth/fetch. Loopback only, and only back into the
 * Studio (its base path) at an origin this lake allows by CORS (the site's), never to an address with
 * credentials: no other page, on the site or elsewhere, gets a session out of it.
 */
function signInPage({ request, response, url }: Exchange, lake: Lake) {
  if (!isLoopback(request)) throw gatewayError(403, 'Forbidden', 'Signing in is for browsers on this machine only')
  const projectId = url.searchParams.get('projectId')
  if (projectId !== null && projectId !== lake.projectId)
    throw gatewayError(
      400,
      'Bad Request',
      `Project "${projectId}" is not served here: the local Content Lake serves "${lake.projectId}"`,
    )
  let target: URL
  try {
    target = new URL(url.searchParams.get('origin') ?? '')
  } catch {
    throw gatewayError(400, 'Bad Request', 'Missing or invalid "origin": the address to return to after signing in')
  }
  if (target.username || target.password)
    throw gatewayError(400, 'Bad Request', 'Invalid "origin": an address to return to carries no user name or password')
  if (!lake.corsOrigins.has(target.origin))
    throw gatewayError(
      403,
      'Forbidden',
      `Origin not allowed: ${target.origin} (start the server with --site-url or --cors-origin ${target.origin})`,
    )
  const studio = lake.studioPath
  if (target.pathname !== studio && !target.pathname.startsWith(`${studio}/`))
    throw gatewayError(
      403,
      'Forbidden',
      `A sign-in returns into the Studio only (${studio}), not to ${target.pathname}`,
    )
  target.hash = `sid=${lake.signIns.issue()}`
  send(response, 302, null, { Location: target.href, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
}

/**
 * /auth/*: the Studio's sign-in (providers, the local provider's page, the session exchange, the
 * session probe, logout), and the tokens our own scripts and the site's server take on loopback.
 */
export const auth: Route = {
  matches: ({ segments: [first] }) => first === 'auth',
  serve: (exchange, lake) => {
    const { request, response, method, cors, segments, path, url, json } = exchange
    const [, second, third] = segments
    if (second === 'providers' && method === 'GET') {
      return json(200, {
        thirdPartyLogin: false,
        sso: { saml: false },
        providers: [
          { name: PROVIDER, title: LOCAL_EDITOR.name, url: `${lake.browserUrl()}/v1/auth/login/${PROVIDER}` },
        ],
      })
    }
    if (second === 'login' && third === PROVIDER && segments.length === 3 && method === 'GET')
      return signInPage(exchange, lake)
    // The exchange of a sign-in's session id for the editor token: once per id, within its minutes.
    if (second === 'fetch' && segments.length === 2 && method === 'GET') {
      if (!isLoopback(request)) throw gatewayError(403, 'Forbidden', 'Signing in is for browsers on this machine only')
      if (!lake.signIns.redeem(url.searchParams.get('sid') ?? ''))
        throw gatewayError(401, 'Unauthorized', 'Session not found: unknown, expired or already used session id')
      return sendJson(response, 200, { token: lake.editorToken }, { ...cors, 'Cache-Control': 'no-store' })
    }
    // Whose the caller's session is: the editor's, or the viewer token's robot (no cookie is ever set here).
    if (second === 'id' && segments.length === 2 && method === 'GET')
      return json(200, { id: lake.access.user(request).id })
    // The token an editor's browser signs in with: loopback, this site's origin only (CORS).
    if (second === 'local-token' && method === 'GET') {
      if (!isLoopback(request)) throw gatewayError(403, 'Forbidden', 'The editor token is issued on loopback only')
      return sendJson(response, 200, { token: lake.editorToken }, { ...cors, 'Cache-Control': 'no-store' })
    }
    // What the site's server needs, on loopback, never to a page (no CORS, no Origin): its preview token
    // (reads drafts, writes nothing) and the webhook's secret, both made for this data folder.
    if (second === 'local-site-credentials' && method === 'GET') {
      if (!isLoopback(request) || header(request, 'origin') !== undefined) {
        throw gatewayError(403, 'Forbidden', "The site's credentials go to the site's server on loopback only")
      }
      return sendJson(
        response,
        200,
        { viewerToken: lake.viewerToken, webhookSecret: lake.webhookSecret },
        { 'Cache-Control': 'no-store' },
      )
    }
    if (second === 'logout') return json(200, { ok: true })
    throw gatewayError(404, 'Not Found', `No such endpoint: ${method} ${path}`)
  },
}
