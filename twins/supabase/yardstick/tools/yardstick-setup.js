// Tells the proxy which test runs, so its log can be read test by test. Runs in the test's process.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest 28 loads this as CommonJS
const http = require('node:http')
const proxy = new URL(process.env.YARDSTICK_PROXY_URL)
beforeEach(
  () =>
    new Promise((resolve) => {
      const name = `${expect.getState().testPath.replace(/.*\/test\//, '')} :: ${expect.getState().currentTestName}`
      const req = http.request(
        // agent: false: a kept-alive socket from the previous test file may be stale (ECONNRESET).
        { host: proxy.hostname, port: proxy.port, method: 'POST', path: '/__yardstick/test', agent: false },
        (res) => res.resume().on('end', resolve),
      )
      req.on('error', (error) => {
        console.warn(`yardstick marker not delivered: ${error}`)
        resolve()
      })
      req.end(name)
    }),
)
