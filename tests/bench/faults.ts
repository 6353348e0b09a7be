// `npm run bench:faults`: what a visitor sees when a service fails. For each fault, the worst wait of a
// visitor and the status codes they got, over every public page in both languages (BENCH_ROUNDS (2)
// rounds), the first round right after a publish, side by side with no fault; then how long after
// the service is back until the home page shows the publish. A page unanswered within 15 s ends that
// fault's visit (« no answer in 15 s »).
// - the content API down (connections refused), hung (accepts, never answers), slow (every answer 2 s
//   late): the site's server (server/main.ts over the benchmark build) reads the Content Lake through a
//   proxy here, its SANITY_PROJECT_API_URL, that does each;
// - Redis down: a second server with REDIS_URL pointing at a port nothing listens on;
// - Supabase hung: the contact form in Chromium, its requests to Supabase never answered; the wait is
//   from the click on « Envoyer » to the message.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { chromium } from '@playwright/test'
import { freePort } from '@plume/twins/free-port'
import { CHROMIUM_ARGS, findChromium } from '../../scripts/lib/find-chromium.ts'
import { startProcess, stopProcess } from '../../scripts/lib/supervisor.ts'
import { startBenchSite } from './bench-site.ts'
import { benchLog, waitForServer } from './bench-kit.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
/** The ceiling: a visitor who waited this long has left. */
const NO_ANSWER_MS = 15_000
const PATHS = ['/', '/linkedin-services', '/redaction-web', '/campagnes-email', '/strategie-contenu', '/about']
  .concat(['/contact', '/legal-notice', '/privacy-policy'])
  .flatMap((path) => [path, path === '/' ? '/en' : `/en${path}`])
const logFile = benchLog('faults', 'bench-results')

type Mode = 'pass' | 'down' | 'hung' | 'slow'

/** A proxy in front of the Content Lake that passes, refuses, hangs or delays (the site's SANITY_PROJECT_API_URL). */
async function faultyProxy(target: string) {
  let mode: Mode = 'pass'
  const port = await freePort()
  const sockets = new Set<Socket>()
  const held = new Set<ServerResponse>()
  const pass = (request: IncomingMessage, response: ServerResponse) => {
    const upstream = forward(
      `${target}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  }
  const server = createServer((request, response) => {
    if (mode === 'hung') held.add(response)
    else if (mode === 'slow') setTimeout(() => pass(request, response), 2000)
    else pass(request, response)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  await listen()
  return {
    url: `http://127.0.0.1:${port}`,
    async set(next: Mode) {
      if (mode === 'down' && next !== 'down') await listen()
      for (const response of held) response.destroy()
      held.clear()
      if (next === 'down') {
        await new Promise((resolve) => {
          server.close(resolve)
          for (const socket of sockets) socket.destroy()
        })
      }
      mode = next
    },
  }
}

const url = (port: number) => `http://127.0.0.1:${port}`
// No webhook from the Content Lake: each publish tells the server itself (signed), to time it.
const { cleanUp } = await startBenchSite(logFile)
try {
  const lake = process.env.SANITY_PROJECT_API_URL!
  const proxy = await faultyProxy(lake)
  const [site, alone] = [await freePort(), await freePort()]
  const server = (port: number, env: Record<string, string>) =>
    startProcess(process.execPath, ['server/main.ts', '-p', String(port), '-H', '127.0.0.1'], {
      env: { PORT: String(port), ...env },
      logFile,
    })
  const servers = [
    server(site, { SANITY_PROJECT_API_URL: proxy.url }),
    server(alone, { SANITY_PROJECT_API_URL: lake, REDIS_URL: `redis://127.0.0.1:${await freePort()}` }),
  ]
  await waitForServer(`${url(site)}/robots.txt`, logFile)
  await waitForServer(`${url(alone)}/robots.txt`, logFile)

  const { token } = (await (await fetch(`${lake}/v1/auth/local-token`)).json()) as { token: string }
  const { webhookSecret } = (await (await fetch(`${lake}/v1/auth/local-site-credentials`)).json()) as {
    webhookSecret: string
  }
  const { createHmac } = await import('node:crypto')
  /** Publishes a new title, then tells `port` as the Content Lake's webhook would. */
  const publish = async (title: string, port: number) => {
    const mutation = { mutations: [{ patch: { id: 'homePage', set: { 'hero.title.fr': title } } }] }
    await fetch(`${lake}/v2025-02-19/data/mutate/production`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(mutation),
    })
    const body = JSON.stringify({ _type: 'homePage' })
    const t = Date.now()
    const signature = createHmac('sha256', webhookSecret).update(`${t}.${body}`).digest('base64url')
    await fetch(`${url(port)}/api/revalidate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'sanity-webhook-signature': `t=${t},v1=${signature}` },
      body,
    })
  }
  /**
   * Every page ROUNDS times: the worst wait (ms) and the status codes, counted. A request unanswered
   * after NO_ANSWER_MS ends the visit: a server that hangs would otherwise take minutes per fault.
   */
  const visit = async (port: number) => {
    let worst = 0
    const statuses: Record<string, number> = {}
    for (let round = 0; round < ROUNDS; round++)
      for (const path of PATHS) {
        const started = performance.now()
        const status = await fetch(`${url(port)}${path}`, { signal: AbortSignal.timeout(NO_ANSWER_MS) })
          .then(async (response) => {
            await response.arrayBuffer()
            return String(response.status)
          })
          .catch(() => `no answer in ${NO_ANSWER_MS / 1000} s`)
        worst = Math.max(worst, performance.now() - started)
        statuses[status] = (statuses[status] ?? 0) + 1
        if (status.startsWith('no answer')) return { worst, statuses }
      }
    return { worst, statuses }
  }
  const shows = async (port: number, title: string) => {
    const since = performance.now()
    while (performance.now() - since < 60_000) {
      if ((await (await fetch(`${url(port)}/`)).text()).includes(title)) return performance.now() - since
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return Number.NaN
  }

  const rows: string[][] = []
  const row = (fault: string, seen: { worst: number; statuses: Record<string, number> }, back: number | string) =>
    rows.push([
      fault,
      `${Math.round(seen.worst)} ms`,
      Object.entries(seen.statuses)
        .map(([status, count]) => `${count}× ${status}`)
        .join(', '),
      typeof back === 'number' ? (Number.isNaN(back) ? 'not within 60 s' : `${Math.round(back)} ms`) : back,
    ])
  await visit(site) // every page rendered once
  for (const mode of ['pass', 'down', 'hung', 'slow'] as const) {
    const title = `Panne ${mode} ${Date.now().toString(36)}`
    await proxy.set(mode)
    await publish(title, site)
    const seen = await visit(site)
    await proxy.set('pass')
    const fault = {
      pass: 'no fault',
      down: 'content API down',
      hung: 'content API hung',
      slow: 'content API slow (2 s)',
    }
    row(fault[mode], seen, await shows(site, title))
  }
  {
    const title = `Sans Redis ${Date.now().toString(36)}`
    await visit(alone)
    await publish(title, alone)
    row('Redis down', await visit(alone), await shows(alone, title))
  }

  // Supabase hung: the form's request is never answered; the visitor waits for the message.
  const browser = await chromium.launch({
    executablePath: findChromium({ kind: 'headless-shell' }),
    args: CHROMIUM_ARGS,
  })
  try {
    const page = await browser.newPage()
    await page.route('**/rest/v1/**', () => {}) // never answered
    await page.goto(`${url(site)}/contact`)
    const form = page.getByTestId('contact-form-page')
    await form.getByLabel(/^Nom \*/).fill('Camille Martin')
    await form.getByLabel(/^Email \*/).fill('bench@example.fr')
    await form.getByLabel(/^Message \*/).fill('Un message pour mesurer le délai.')
    await page.waitForTimeout(3200) // the form refuses a message sent within 3 s of its appearance
    const started = performance.now()
    await form.getByRole('button', { name: 'Envoyer le message' }).click()
    const shown = await page
      .getByText("Une erreur s'est produite")
      .first()
      .waitFor({ timeout: 60_000 })
      .then(() => true)
      .catch(() => false)
    const kept = (await form.getByLabel(/^Message \*/).inputValue()) === 'Un message pour mesurer le délai.'
    row(
      'Supabase hung (the form)',
      { worst: performance.now() - started, statuses: { [shown ? 'message shown' : 'no message in 60 s']: 1 } },
      kept ? 'fields kept' : 'fields lost',
    )
  } finally {
    await browser.close()
  }

  const head = ['fault', 'worst wait', 'answers', 'the publish shown after recovery']
  const widths = head.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column].length)))
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`
  console.log([line(head), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n'))
  for (const child of servers) await stopProcess(child)
} finally {
  await cleanUp()
}
