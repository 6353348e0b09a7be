import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

// The site never reaches the local twins (twins/, @plume/twins): it reads its services from the
// environment (lib/backends.ts), which the commands that start the twins fill in. The scripts reach them
// only through scripts/lib/start-twins.ts (tests may use the package directly), and share the package's
// port helpers (@plume/twins/free-port, no twin in it); the package imports nothing from the site.
const twinsPackage = {
  group: ['@plume/twins', '@plume/twins/*'],
  message:
    'The site knows its services by their variables only (lib/backends.ts); the scripts start the twins through scripts/lib/start-twins.ts.',
}
const twinsFolder = {
  regex: '^(\\.{1,2}/|@/)(.*/)?twins(/|$)',
  message: 'Import the local twins through their package, @plume/twins, from scripts/lib/start-twins.ts only.',
}
const intoTheSite = (up) => ({
  patterns: [
    { group: ['@/*'], message: 'The local twins import nothing from the site: take what you need as an option.' },
    {
      regex: `^(\\.\\./){${up},}`,
      message: 'The local twins import nothing from the site: take what you need as an option.',
    },
  ],
})

// The production server's container image holds server/, lib/security/ and Next's standalone output only:
// neither lib/backends.ts nor zod nor the twins are there, and Node runs server/ by type stripping (no aliases).
const imageOnly =
  'The production server (server/, lib/security/) may import only server/, lib/security/ (not policy-sources.ts), Node and next: its container image holds nothing else.'
const outsideTheImage = [
  { group: ['@plume/twins', '@plume/twins/*', 'zod', 'zod/*'], message: imageOnly },
  {
    regex: '^@/|(^|/)(backends|policy-sources)(\\.ts)?$|(^|/)twins(/|$)|^\\.\\./(?!lib/security/)|\\.\\./\\.\\./',
    message: imageOnly,
  },
]

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      '.next/**',
      '.next-*/**',
      'node_modules/**',
      'test-results/**',
      '.data/**',
      '.sanity/**',
      'lib/sanity/sanity.types.ts',
      'public/styles/**',
      'next-env.d.ts',
      'tests/.*.tmp.*',
      'bench-results/**',
      '.bench-floor/**',
    ],
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.{js,mjs,ts,tsx,mts}'],
    ignores: ['twins/**', 'scripts/lib/start-twins.ts', 'tests/**', '**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [twinsPackage, twinsFolder] }] },
  },
  {
    files: ['scripts/**'],
    ignores: ['scripts/lib/start-twins.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@plume/twins(?!/free-port$)(/|$)', message: twinsPackage.message }, twinsFolder] },
      ],
    },
  },
  { files: ['tests/**'], rules: { 'no-restricted-imports': ['error', { patterns: [twinsFolder] }] } },
  {
    files: ['server/**/*.ts', 'lib/security/*.ts'],
    ignores: ['lib/security/policy-sources.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: outsideTheImage }] },
  },
  { files: ['twins/*.{ts,mts}'], rules: { 'no-restricted-imports': ['error', intoTheSite(1)] } },
  { files: ['twins/*/**/*.{ts,mts}'], rules: { 'no-restricted-imports': ['error', intoTheSite(2)] } },
  // Two folders down (content-lake/routes/), ../../ is still the package (its shared http-kit.ts): the site is three up.
  { files: ['twins/*/*/**/*.{ts,mts}'], rules: { 'no-restricted-imports': ['error', intoTheSite(3)] } },
]

export default config
