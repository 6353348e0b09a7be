// A bare-PostgREST face for the twin: http://127.0.0.1:<port>/<table> -> <twin>/rest/v1/<table>, with the
// service_role key as apikey and bearer token (PostgREST's test config runs every request as `postgres`;
// service_role is the twin's role with every grant and no RLS). Whatever apikey/Authorization the suite
// sends is replaced (PostgREST ignores apikey; the twin's gateway would refuse `foo`).
// Loopback, its own Host and no Origin only. Logs every exchange as JSON lines, tagged with the running test (POST /__yardstick/test from the
// suite's setup file), for the classification (classify.mjs).
import http from 'node:http'
import { appendFileSync, writeFileSync } from 'node:fs'

const [twinUrl, logFile, portFile] = process.argv.slice(2)
const SERVICE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'
const twin = new URL(twinUrl)
let currentTest = null
let seq = 0
writeFileSync(logFile, '')

/** Bodies past this are refused: the suite's largest is a few kilobytes. */
const MAX_BODY = 1024 * 1024

const server = http.createServer((req, res) => {
  // Loopback only, and only for the suite (node-fetch, no Origin): a page the developer has open in a
  // browser must not borrow the service_role key it adds (DNS rebinding, cross-origin requests).
  const { port } = server.address()
  if (
    !['127.0.0.1', 'localhost'].map((host) => `${host}:${port}`).includes(req.headers.host ?? '') ||
    req.headers.origin
  ) {
    res.writeHead(403).end()
    return
  }
  const chunks = []
  let size = 0
  req.on('data', (c) => {
    size += c.length
    if (size > MAX_BODY) req.destroy()
    else chunks.push(c)
  })
  req.on('end', () => {
    const body = Buffer.concat(chunks)
    if (req.url === '/__yardstick/test') {
      currentTest = body.toString()
      res.writeHead(204).end()
      return
    }
    const headers = { ...req.headers }
    for (const h of ['host', 'apikey', 'authorization', 'connection', 'keep-alive']) delete headers[h]
    headers.host = twin.host
    headers.apikey = SERVICE_KEY
    headers.authorization = `Bearer ${SERVICE_KEY}`
    const upstream = http.request(
      { host: twin.hostname, port: twin.port, method: req.method, path: '/rest/v1' + req.url, headers },
      (up) => {
        const out = []
        up.on('data', (c) => out.push(c))
        up.on('end', () => {
          const responseBody = Buffer.concat(out)
          const rh = { ...up.headers }
          delete rh['transfer-encoding']
          delete rh['connection']
          rh['content-length'] = String(responseBody.length)
          res.writeHead(up.statusCode, rh).end(responseBody)
          appendFileSync(
            logFile,
            JSON.stringify({
              seq: ++seq,
              test: currentTest,
              method: req.method,
              url: req.url,
              requestHeaders: Object.fromEntries(
                Object.entries(req.headers).filter(([k]) =>
                  ['prefer', 'accept', 'accept-profile', 'content-profile', 'content-type', 'range', 'apikey'].includes(
                    k,
                  ),
                ),
              ),
              requestBody: body.toString().slice(0, 4000),
              status: up.statusCode,
              responseHeaders: Object.fromEntries(
                Object.entries(up.headers).filter(([k]) =>
                  ['content-range', 'preference-applied', 'content-type', 'location'].includes(k),
                ),
              ),
              responseBody: responseBody.toString().slice(0, 4000),
            }) + '\n',
          )
        })
      },
    )
    upstream.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) }))
    })
    upstream.end(body)
  })
})
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address()
  writeFileSync(portFile, String(port))
  console.log(`proxy on http://127.0.0.1:${port} -> ${twinUrl}/rest/v1`)
})
