import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'local/**/*.test.ts'],
    environment: 'node',
    // Logs of passing tests (the function's JSON lines) stay quiet; a failing test shows its own.
    silent: 'passed-only',
    // Ceilings that catch hangs, generous enough for a busy 2-core machine (starting a local Supabase
    // server, a Postgres engine in WebAssembly, took over a minute there): tests wait for outcomes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
})
