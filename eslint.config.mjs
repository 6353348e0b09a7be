import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

// The local twins (local/, @plume/local-twins) and the site meet at one door: the site reaches them only
// through lib/backends.ts, the scripts only through scripts/lib/backends.mjs (tests may use the package
// directly); the package imports nothing from the site.
const twinsPackage = { group: ['@plume/local-twins', '@plume/local-twins/*'], message: 'Reach the local twins through lib/backends.ts (the site) or scripts/lib/backends.mjs (the scripts).' }
const twinsFolder = { regex: '^(\\.{1,2}/|@/)(.*/)?local(/|$)', message: 'Import the local twins through their package, @plume/local-twins, from the door (lib/backends.ts) only.' }
const intoTheSite = (up) => ({
  patterns: [
    { group: ['@/*'], message: 'The local twins import nothing from the site: take what you need as an option.' },
    { regex: `^(\\.\\./){${up},}`, message: 'The local twins import nothing from the site: take what you need as an option.' },
  ],
})

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
  { files: ['**/*.{js,mjs,ts,tsx,mts}'], ignores: ['local/**', 'lib/backends.ts', 'scripts/lib/backends.mjs', 'scripts/lib/backends.d.mts', 'tests/**'], rules: { 'no-restricted-imports': ['error', { patterns: [twinsPackage, twinsFolder] }] } },
  { files: ['tests/**'], rules: { 'no-restricted-imports': ['error', { patterns: [twinsFolder] }] } },
  { files: ['local/*.{ts,mts}'], rules: { 'no-restricted-imports': ['error', intoTheSite(1)] } },
  { files: ['local/*/**/*.{ts,mts}'], rules: { 'no-restricted-imports': ['error', intoTheSite(2)] } },
]

export default config
