// Command line of the local Content Lake: `node twins/content-lake/content-lake-server.ts --help`.
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startContentLake } from './start-content-lake.ts'
import { LOCAL_CONTENT_LAKE_PORT, LOCAL_SITE_URL, LOCAL_STUDIO_PATH } from './content-lake-settings.ts'

const HELP = `Local Content Lake (Sanity-compatible)

Serves the parts of Sanity's HTTP API that the embedded Studio, @sanity/client / next-sanity and the
Sanity CLI use — queries with perspectives (groq-js), documents, mutations, document actions, the
listener, assets, 90 days of history — for project "local", dataset "production", seeded from
--seed-dir the first time. Plain HTTP for Node clients and HTTP/2 over TLS for browsers share one
loopback port. Every change to a published document is POSTed, signed, to the site's /api/revalidate.

Usage: node twins/content-lake/content-lake-server.ts [options]   (npm run sanity:local -- [options])

Options:
  --host <address>         listen address (default 127.0.0.1; keep it on loopback)
  --port <n>               port (default ${LOCAL_CONTENT_LAKE_PORT}; 0 picks a free one)
  --data-dir <folder>      where documents, their history, assets and the token live
                           (default .data/content-lake)
  --tls-dir <folder>       where the TLS certificate lives, apart so that deleting the data keeps
                           it trusted (default .data/tls; npm run cert:trust trusts it)
  --memory                 keep everything in memory only (tests, benchmarks)
  --seed-dir <folder>      an export (production.ndjson + images/) imported into an empty dataset
                           (default: none, the dataset starts empty; npm run sanity:local passes studio/seed)
  --site-url <url>         the site: allowed CORS origin (where the Studio's sign-in may return)
                           and webhook target (default ${LOCAL_SITE_URL})
  --cors-origin <origin>   another allowed browser origin (repeatable)
  --studio-path <path>     the Studio's base path on the site, the one place a sign-in returns to
                           (default ${LOCAL_STUDIO_PATH})
  --no-webhook             do not call the site's /api/revalidate
  --help                   show this help

Environment: SANITY_REVALIDATE_SECRET (the webhook's secret; default: a random one made for the data
folder, which the site's server asks for on loopback).
`

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: String(LOCAL_CONTENT_LAKE_PORT) },
    'data-dir': { type: 'string' },
    'tls-dir': { type: 'string' },
    memory: { type: 'boolean', default: false },
    'seed-dir': { type: 'string' },
    'site-url': { type: 'string', default: LOCAL_SITE_URL },
    'cors-origin': { type: 'string', multiple: true, default: [] },
    'studio-path': { type: 'string', default: LOCAL_STUDIO_PATH },
    'no-webhook': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
})

if (values.help) {
  process.stdout.write(HELP)
  process.exit(0)
}

if (!/^\d+$/.test(values.port!)) {
  console.error(`--port expects a non-negative integer, got "${values.port}"`)
  process.exit(2)
}
const port = Number(values.port)
const siteUrl = values['site-url']!.replace(/\/+$/, '')
const dataDir = values.memory ? undefined : (values['data-dir'] ?? join(process.cwd(), '.data', 'content-lake'))
const siteOrigin = new URL(siteUrl).origin
const origins = [
  siteOrigin,
  siteOrigin.replace('//localhost', '//127.0.0.1'),
  siteOrigin.replace('//127.0.0.1', '//localhost'),
  ...values['cors-origin']!,
]

try {
  const lake = await startContentLake({
    host: values.host,
    port,
    dataDir,
    tlsDir: values.memory ? undefined : (values['tls-dir'] ?? join(process.cwd(), '.data', 'tls')),
    seedDir: values['seed-dir'],
    corsOrigins: [...new Set(origins)],
    studioPath: `/${values['studio-path']!.replace(/^\/+|\/+$/g, '')}`,
    webhookUrl: values['no-webhook'] ? null : `${siteUrl}/api/revalidate`,
    webhookSecret: process.env.SANITY_REVALIDATE_SECRET || undefined,
  })
  console.log(
    `Local Content Lake listening on ${lake.url} (Node) and ${lake.httpsUrl} (browsers, HTTP/2) — ${dataDir ? `data in ${dataDir}` : 'in memory'}`,
  )
  if (lake.certPath) console.log(`  TLS certificate to trust for the Studio: ${lake.certPath}`)
  const stop = () => {
    lake.close().finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  if ((error as { code?: string }).code === 'EADDRINUSE') {
    console.error(
      `Port ${port} on ${values.host} is already in use. Stop what runs there (perhaps another copy of this server), or pick another port with --port (CONTENT_LAKE_PORT for npm start).`,
    )
  } else {
    console.error('The local Content Lake could not start:', error)
  }
  process.exit(1)
}
