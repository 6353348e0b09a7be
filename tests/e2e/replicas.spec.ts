import { createClient } from '@redis/client'
import { expect, test } from './fixtures'
import { lake } from './studio-kit'
import { startRedisServer } from '../../scripts/lib/redis-server.ts'

/*
 * Two replicas of the same build share what is published through a Redis (REDIS_URL): `npm start`'s
 * server, which the Content Lake's webhook reaches, and a second one (REPLICA_URL) it never reaches.
 * Then Redis stops: both keep serving; and comes back: what was published meanwhile, and after, reaches
 * the second replica. The test command starts both replicas and Redis, and runs this file alone, before
 * the restart test.
 */

const replica = process.env.REPLICA_URL!
const redisUrl = process.env.REDIS_URL!

/** Publishes the home page's French title as the Studio would (the webhook reaches `npm start`'s server). */
const publishTitle = (title: string) =>
  lake('/v2025-02-19/data/mutate/production', {
    method: 'POST',
    body: JSON.stringify({ mutations: [{ patch: { id: 'homePage', set: { 'hero.title.fr': title } } }] }),
  })

/**
 * The replica's home page until it shows `title`, asked as a visitor asks (no Cache-Control: its
 * server's memory cache answers when it holds the page). The ceiling catches hangs on a busy machine;
 * `npm run bench:replicas` measures how soon it shows.
 */
async function replicaShows(request: import('@playwright/test').APIRequestContext, title: string) {
  await expect
    .poll(async () => (await (await request.get(`${replica}/`)).text()).includes(title), {
      timeout: 30_000,
      intervals: [100],
    })
    .toBe(true)
}

test('a publish the webhook brings to one replica reaches the other; with Redis stopped both serve, and it catches up', async ({
  request,
}) => {
  test.setTimeout(150_000)
  expect(replica, 'REPLICA_URL').toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(redisUrl, 'REDIS_URL').toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/)
  const stamp = Date.now().toString(36)
  // Both replicas hold the page (rendered, and in their servers' memory).
  for (const base of ['', replica]) expect((await request.get(`${base}/`)).status()).toBe(200)

  const first = `Une seule vérité ${stamp}`
  await publishTitle(first)
  await replicaShows(request, first)

  // Redis stops (as a crashed container would): both replicas keep answering, the page and others.
  // No reconnection, and its error (the socket Redis closes as it stops) expected rather than thrown.
  const admin = createClient({ url: redisUrl, socket: { reconnectStrategy: false } })
  admin.on('error', () => {})
  await admin.connect()
  // SHUTDOWN closes the connection as it stops: its answer never comes.
  await admin.sendCommand(['SHUTDOWN', 'NOSAVE']).catch(() => {})
  if (admin.isOpen) admin.destroy()
  const whileDown = `Sans Redis ${stamp}`
  await publishTitle(whileDown)
  await expect
    .poll(async () => (await (await request.get('/')).text()).includes(whileDown), { timeout: 30_000 })
    .toBe(true)
  for (const base of ['', replica])
    for (const path of ['/', '/en', '/about', '/en/contact']) {
      const response = await request.get(`${base}${path}`)
      expect([base || 'npm start', path, response.status()]).toEqual([base || 'npm start', path, 200])
    }

  // Redis back on the same address (empty, as a restarted one without persistence): what was published
  // while it was down reaches the other replica, and so does the next publish.
  const port = Number(new URL(redisUrl).port)
  const restarted = await startRedisServer({
    port,
    binary: process.env.REDIS_SERVER_PATH,
    logFile: 'test-results/redis.log',
  })
  try {
    await replicaShows(request, whileDown)
    const after = `Redis revenu ${stamp}`
    await publishTitle(after)
    await replicaShows(request, after)
  } finally {
    await restarted.stop()
  }
})
