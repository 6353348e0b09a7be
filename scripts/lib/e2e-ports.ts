// Ports and URLs for Playwright's own webServer (playwright.config.ts), chosen synchronously (the config
// cannot wait) and kept in process.env, which Playwright's workers inherit. The ports of the last run are
// reused while free, so the test build made for them (its URLs are inlined) is reused too.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { twinAddressVariables } from './start-twins.ts'
import { TEST_DIST_DIR } from './test-build.ts'

const PORTS_FILE = 'test-results/e2e-ports.json'

// A child process answers, as the config cannot await: free ports, or which of the given ones are free.
const PROBE = `
import net from 'node:net'
const wanted = JSON.parse(process.argv[1])
const tryPort = (port) => new Promise((resolve) => {
  const server = net.createServer().once('error', () => resolve(null))
  server.listen(port, '127.0.0.1', () => { const { port: got } = server.address(); server.close(() => resolve(got)) })
})
const ports = []
for (const port of wanted) ports.push(await tryPort(port))
console.log(JSON.stringify(ports))`

function probe(ports: number[]): number[] {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE, JSON.stringify(ports)], {
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`could not choose free ports: ${result.stderr}`)
  return JSON.parse(result.stdout)
}

/** null when the caller already runs the servers (BASE_URL set); otherwise the webServer's settings. */
export function e2eServers(): { baseURL: string; env: Record<string, string> } | null {
  if (process.env.BASE_URL) return null
  if (!process.env.E2E_SITE_PORT) {
    const previous = existsSync(PORTS_FILE) ? JSON.parse(readFileSync(PORTS_FILE, 'utf8')) : null
    const reused = previous && probe(previous)
    let ports: number[] =
      reused && reused.every((port: number, index: number) => port === previous[index]) ? previous : probe([0, 0, 0])
    if (new Set(ports).size !== 3) ports = probe([0, 0, 0])
    mkdirSync('test-results', { recursive: true })
    writeFileSync(PORTS_FILE, JSON.stringify(ports))
    ;[process.env.E2E_LAKE_PORT, process.env.E2E_SUPABASE_PORT, process.env.E2E_SITE_PORT] = ports.map(String)
    process.env.SUPABASE_URL = `http://127.0.0.1:${ports[1]}`
    // The tests check what was stored with the key the Supabase twin hands over, as the test command does.
    process.env.SUPABASE_SERVICE_ROLE_KEY = twinAddressVariables({
      supabaseUrl: process.env.SUPABASE_URL,
    }).SUPABASE_SERVICE_ROLE_KEY
    // The mail viewer's web page and SMTP (nothing the build inlines: fresh ones each run).
    let mail = probe([0, 0])
    while (new Set([...ports, ...mail]).size !== 5) mail = probe([0, 0])
    ;[process.env.E2E_MAIL_PORT, process.env.E2E_MAIL_SMTP_PORT] = mail.map(String)
    process.env.MAIL_VIEWER_URL = `http://127.0.0.1:${mail[0]}`
    process.env.CONTENT_LAKE_URL = `http://127.0.0.1:${ports[0]}`
    // The build the site serves (tests read its prerender manifest), as the test command passes it.
    process.env.NEXT_DIST_DIR = TEST_DIST_DIR
  }
  const env = {
    E2E_LAKE_PORT: process.env.E2E_LAKE_PORT ?? '',
    E2E_SUPABASE_PORT: process.env.E2E_SUPABASE_PORT ?? '',
    E2E_SITE_PORT: process.env.E2E_SITE_PORT ?? '',
    E2E_MAIL_PORT: process.env.E2E_MAIL_PORT ?? '',
    E2E_MAIL_SMTP_PORT: process.env.E2E_MAIL_SMTP_PORT ?? '',
  }
  return { baseURL: `http://127.0.0.1:${env.E2E_SITE_PORT}`, env }
}
