import { header, sendJson, type Request } from '../../http-kit.ts'
import { gatewayError } from '../content-lake-error.ts'
import type { Route } from './route.ts'

const isLoopback = (request: Request) => /^(127\.|::1$|::ffff:127\.)/.test(request.socket?.remoteAddress ?? '')

/** /auth/*: the local tokens (loopback only), and the sign-in providers the Studio asks for (none). */
export const auth: Route = {
  matches: ({ segments: [first] }) => first === 'auth',
  serve: ({ request, response, method, cors, segments: [, second], path, json }, lake) => {
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
    if (second === 'providers') return json(200, { thirdPartyLogin: false, sso: { saml: false }, providers: [] })
    if (second === 'logout') return json(200, { ok: true })
    throw gatewayError(404, 'Not Found', `No such endpoint: ${method} ${path}`)
  },
}
