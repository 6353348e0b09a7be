// Preloaded into each Node process the supervisor keeps running (supervisor.ts): the parent holds the
// other end of an IPC channel the child never uses; when the parent dies, however it dies, the channel
// closes and the child shuts down as on SIGTERM (its own handler closes its server cleanly). The channel
// alone keeps nothing alive.
if (process.channel) {
  process.channel.unref()
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}
