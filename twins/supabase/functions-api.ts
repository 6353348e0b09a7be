import { existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sendJson } from '../http-kit.ts'

/*
 * /functions/v1/<name>: runs the project's supabase/functions/<name>/handler.ts in this Node process.
 * Each function keeps its Request → Response handler in handler.ts (index.ts only hands it to
 * Deno.serve on Supabase Edge), so the very same code answers here and there.
 */

/** A function's handler; `env` is what Supabase's runtime would give it (its process environment plus SUPABASE_URL and keys). */
type Handler = (request: Request, env: Record<string, string | undefined>) => Promise<Response>

/** What a function may be called with; fetch's Request refuses CONNECT, TRACE and TRACK outright. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const loaded = new Map<string, Promise<Handler>>()

function loadHandler(functionsDir: string, name: string): Promise<Handler> | null {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) return null
  const file = join(functionsDir, name, 'handler.ts')
  if (!existsSync(file)) return null
  if (!loaded.has(file)) {
    loaded.set(
      file,
      import(pathToFileURL(file).href).then((module: { default?: Handler }) => {
        if (typeof module.default !== 'function') throw new Error(`${file} has no default export`)
        return module.default
      }),
    )
  }
  return loaded.get(file)!
}

/** What Supabase's runtime sets for every function: this API's URL and keys. */
export type PlatformEnv = { SUPABASE_URL: string; SUPABASE_ANON_KEY: string; SUPABASE_SERVICE_ROLE_KEY: string }

export async function handleFunction(
  functionsDir: string,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: string,
  headers: Record<string, string>,
  forwarded: string,
  platform: PlatformEnv,
  /** Variables the functions see when the process environment leaves them unset (SMTP_URL offline). */
  defaults: Record<string, string> = {},
) {
  const name = url.pathname.replace(/^\/functions\/v1\//, '').split('/')[0]
  const handler = loadHandler(functionsDir, name)
  if (!handler)
    return sendJson(response, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' }, headers)
  const method = request.method ?? 'POST'
  if (!METHODS.has(method))
    return sendJson(
      response,
      405,
      { code: 'METHOD_NOT_ALLOWED', message: `Method ${method} is not allowed` },
      { ...headers, Allow: [...METHODS].join(', ') },
    )
  const requestHeaders = new Headers()
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined && key !== 'host' && key !== 'connection')
      requestHeaders.set(key, Array.isArray(value) ? value.join(', ') : value)
  }
  requestHeaders.set('x-forwarded-for', forwarded)
  const webRequest = new Request(url, {
    method,
    headers: requestHeaders,
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
  })
  // Read at each call: the function sees the environment as it is now (tests change SMTP_URL). A
  // variable set in it, even to '', wins over the default.
  const result = await (await handler)(webRequest, { ...defaults, ...process.env, ...platform })
  // Supabase's edge runtime adds no CORS header to a function's answer: the function sets its own.
  // The gateway's are added only where the function set none (Headers.has ignores case), else a
  // browser sees « Access-Control-Allow-Origin: *, * » and refuses the answer.
  const responseHeaders: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) if (!result.headers.has(key)) responseHeaders[key] = value
  result.headers.forEach((value, key) => {
    responseHeaders[key] = value
  })
  response.writeHead(result.status, responseHeaders)
  response.end(Buffer.from(await result.arrayBuffer()))
}
