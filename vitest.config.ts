import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

// Test files that change what every module of their worker sees: the environment (process.env, read
// when a module loads) or the module registry itself (vi.resetModules). They run isolated, each in a
// fresh module registry; every other file shares its worker's modules with the files before it.
const ISOLATED = [
  'tests/unit/sanity-config.test.ts',
  'tests/integration/send-contact-email.test.ts',
  'tests/integration/local-server-robustness.test.ts',
  'tests/integration/bad-input.property.test.ts',
]

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    environment: 'node',
    // Worker threads rather than processes, and modules shared between the files of a worker: the same
    // 324 tests took 131 s of CPU instead of 170 s, 119 s instead of 143 s on a 2-core machine (each
    // file used to load its own copy of zod, supabase-js, PGlite's engine…). Nothing is shared between
    // tests but loaded code: each file starts its own servers and databases.
    pool: 'threads',
    // Logs of passing tests (the function's JSON lines) stay quiet; a failing test shows its own.
    silent: 'passed-only',
    // Ceilings that catch hangs, generous enough for a busy 2-core machine (starting a local Supabase
    // server, a Postgres engine in WebAssembly, took over a minute there): tests wait for outcomes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'local/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
})
