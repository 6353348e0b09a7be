// Preloaded into each supervised twin (start.ts): the parent holds the other end of an IPC channel the
// twin never uses; when the parent dies, however it dies, the channel closes and the twin shuts down
// as on SIGTERM (its own handler closes the server cleanly). The channel alone keeps nothing alive.
if (process.channel) {
  process.channel.unref()
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}
