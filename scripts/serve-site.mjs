// Serves the production build as `next start` does (`node scripts/serve-site.mjs -p 3000 [-H host]`),
// after turning away the request targets Next.js's router fails on with a 500 (`*`, `/%ff`): they get
// 400 Bad Request here, with the site's security headers (see lib/request-target.mjs).
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'
import { securityHeaders } from '../lib/security-headers.ts'
import { malformedRequestTarget } from './lib/request-target.mjs'

process.env.NODE_ENV = 'production'
const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p', default: process.env.PORT || '3000' }, hostname: { type: 'string', short: 'H' } },
  strict: true,
})
const port = Number(values.port)
const { default: next } = await import('next')
const app = next({ dev: false, dir: process.cwd(), hostname: values.hostname ?? 'localhost', port })
await app.prepare()
const handle = app.getRequestHandler()
const badRequestHeaders = {
  ...Object.fromEntries(securityHeaders.map(({ key, value }) => [key, value])),
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': 'no-store',
}

const server = createServer((request, response) => {
  const problem = malformedRequestTarget(request.url)
  if (problem) {
    response.writeHead(400, badRequestHeaders)
    response.end(`Bad Request: ${problem}\n`)
    return
  }
  handle(request, response)
})
server.listen(port, values.hostname, () => console.log(`▲ Next.js production build at http://${values.hostname ?? 'localhost'}:${port}`))
const stop = () => server.close(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
