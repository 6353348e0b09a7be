import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', '.next-*/**', 'node_modules/**', 'test-results/**', '.data/**', '.sanity/**', 'lib/sanity/sanity.types.ts', 'next-env.d.ts', 'tests/.*.tmp.*', 'bench-results/**', '.bench-floor/**'],
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
]

export default config
