// Keeps a local server (the Content Lake, the Supabase server) running under `npm start`: when it
// dies unexpectedly it says so loudly and starts it again, and after too many deaths in a short
// time it gives up (the caller then stops everything with that message) rather than loop.

/**
 * @param {string} name what to call the server in messages
 * @param {() => Promise<import('node:child_process').ChildProcess>} start starts it and resolves once it answers
 * @param {{ maxRestarts?: number, windowMs?: number, onGiveUp: (message: string) => void, log?: (line: string) => void }} options
 */
export async function supervise(name, start, { maxRestarts = 3, windowMs = 60_000, onGiveUp, log = (line) => console.error(line) }) {
  const deaths = []
  let stopping = false
  let child = await start()

  const watch = (current) => {
    current.once('exit', async (code, signal) => {
      if (stopping || current !== child) return
      const now = Date.now()
      deaths.push(now)
      while (deaths.length > 0 && deaths[0] < now - windowMs) deaths.shift()
      const how = signal ? `signal ${signal}` : `exit code ${code}`
      if (deaths.length > maxRestarts) {
        return onGiveUp(`[start] ✖ ${name} died ${deaths.length} times in ${Math.round(windowMs / 1000)} s (last: ${how}); giving up. See its messages above.`)
      }
      log(`\n[start] ✖ ${name} stopped unexpectedly (${how}); restarting it (${deaths.length}/${maxRestarts} in ${Math.round(windowMs / 1000)} s)…\n`)
      try {
        child = await start()
        if (stopping) return void child.kill('SIGTERM')
        log(`[start] ✔ ${name} is running again.`)
        watch(child)
      } catch (error) {
        onGiveUp(`[start] ✖ ${name} could not be restarted: ${error instanceof Error ? error.message : String(error)}`)
      }
    })
  }
  watch(child)

  return {
    /** The running process (changes at each restart). */
    get child() {
      return child
    },
    /** Stops it for good (no restart); resolves once it has exited. */
    stop(signal = 'SIGTERM') {
      stopping = true
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
      return new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill(signal)
      })
    },
  }
}
