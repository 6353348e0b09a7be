import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'local/**/*.test.ts'],
    environment: 'node',
    // Logs of passing tests (the function's JSON lines) stay quiet; a failing test shows its own.
    silent: 'passed-only',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
