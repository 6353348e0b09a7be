// The suite's own jest.config.js, pointed at the work folder's copy, plus the proxy's test marker.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest 28 loads this as CommonJS
const path = require('node:path')
const suite = process.env.YARDSTICK_SUITE_DIR
module.exports = {
  rootDir: suite,
  preset: 'ts-jest',
  testEnvironment: 'node',
  maxWorkers: 1,
  testSequencer: '<rootDir>/test/testSequencer.js',
  setupFilesAfterEnv: [path.join(__dirname, 'yardstick-setup.js')],
  globals: { 'ts-jest': { tsconfig: path.join(suite, 'tsconfig.test.json') } },
}
