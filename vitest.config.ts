import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

// Test files that change what every module of their worker sees: the environment (process.env, read
// when a module loads) or the module registry itself (vi.resetModules). They run isolated, each in a
// fresh module registry; every other file shares its worker's modules with the files before it.
const ISOLATED = [
  'tests/unit/sanity-config.test.ts',
  'tests/integration/send-contact-email.test.ts',
  'tests/integration/send-contact-email-resend.test.ts',
  'tests/integration/notification-schedule.test.ts',
  'tests/integration/bad-input.property.test.ts',
  'tests/unit/draft-mode-enable.test.ts',
]

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    environment: 'node',
    // Modules shared between the files of a worker (isolate: false below): each file used to load its
    // own copy of zod, supabase-js, PGlite's engine… Nothing is shared between tests but loaded code:
    // each file starts its own servers and databases. Worker processes, not threads: with every file's
    // PGlite engines (WebAssembly, each in a thread of its own) in one process, V8 once aborted the whole
    // run (SIGTRAP, "Check failed: jit_page_->allocations_.erase(addr) == 1" while freeing WebAssembly
    // code), a crash no test can catch.
    pool: 'forks',
    // Two files at a time even on two cores (Vitest's default is one worker fewer than the cores): many
    // wait on servers, timers and child processes more than they compute, and one worker left those
    // waits end to end (the lane took as long as all the browser tests beside it).
    maxWorkers: 2,
    // The site reads its services from the environment only (lib/backends.ts): modules that load it get
    // a hosted-shaped configuration. Tests that talk to a service start it and pass its own addresses.
    env: {
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'test1234',
      NEXT_PUBLIC_SUPABASE_URL: 'https://test1234.supabase.co',
      NEXT_PUBLIC_SUPABASE_ANON_KEY: 'test-anon-key',
    },
    // Logs of passing tests (the function's JSON lines) stay quiet; a failing test shows its own.
    silent: 'passed-only',
    // Ceilings that catch hangs, generous enough for a busy 2-core machine (starting a local Supabase
    // server, a Postgres engine in WebAssembly, took over a minute there): tests wait for outcomes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: [
            'tests/unit/**/*.test.ts',
            'tests/integration/**/*.test.ts',
            'twins/**/*.test.ts',
            'scripts/**/*.test.ts',
            'server/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          isolate: true,
          // next-sanity imports `next/headers`, which Node cannot resolve (next has no exports map): Vite does.
          server: { deps: { inline: ['next-sanity'] } },
        },
      },
    ],
  },
})
