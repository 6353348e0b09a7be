// How the scripts find, start and wait for the local Content Lake (local/content-lake) when no hosted
// Sanity project is configured.
import { spawn } from 'node:child_process'
import { LOCAL_CONTENT_LAKE_PORT } from '../../local/content-lake/defaults.ts'
import { isPortTaken } from './free-port.mjs'

/** True unless NEXT_PUBLIC_SANITY_PROJECT_ID names a hosted project. */
export function usesLocalContentLake(env = process.env) {
  return !/^[a-z0-9-]+$/.test(env.NEXT_PUBLIC_SANITY_PROJECT_ID ?? '')
}

export function localContentLakePort(env = process.env) {
  return Number(env.NEXT_PUBLIC_SANITY_LOCAL_PORT) || LOCAL_CONTENT_LAKE_PORT
}

/** 'ours' when our local Content Lake answers on the port, 'other' when something else does, 'free'. */
export async function contentLakeStatus(port) {
  if (!(await isPortTaken(port))) return 'free'
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/ping`, { signal: AbortSignal.timeout(2000) })
    const body = await response.json()
    return body?.name === 'local-content-lake' ? 'ours' : 'other'
  } catch {
    return 'other'
  }
}

/** Starts `node local/content-lake/server.ts` with the given options and resolves once it answers. */
export async function startContentLake(args, { stdio = 'inherit', env = {} } = {}) {
  const port = Number(args[args.indexOf('--port') + 1])
  const child = spawn(process.execPath, ['local/content-lake/server.ts', ...args], { stdio, env: { ...process.env, ...env } })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the local Content Lake stopped (exit ${child.exitCode})`)
    if ((await contentLakeStatus(port)) === 'ours') return child
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  child.kill('SIGTERM')
  throw new Error(`the local Content Lake did not answer on port ${port} within 60 s`)
}

/** 'ours' or 'free'; when something else holds the port, says what to do and exits. */
export async function contentLakePortOrExit(port) {
  const status = await contentLakeStatus(port)
  if (status === 'other') {
    console.error(
      `Port ${port} (the local Content Lake) is already in use by something else. Stop it, set NEXT_PUBLIC_SANITY_LOCAL_PORT to another port, or set NEXT_PUBLIC_SANITY_PROJECT_ID to use a hosted Sanity project.`,
    )
    process.exit(1)
  }
  return status
}
