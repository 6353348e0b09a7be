// Extracts the Studio schema and regenerates lib/sanity/sanity.types.ts from it and the GROQ queries.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'

const env = { ...process.env, SANITY_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', NO_UPDATE_NOTIFIER: '1' }
const run = (args: string[]) => execFileSync('sanity', args, { stdio: ['ignore', 'inherit', 'inherit'], env })

// The CLI refuses to overwrite an earlier extraction.
rmSync('.sanity/schema.json', { force: true })
run(['schema', 'extract', '--path', '.sanity/schema.json', '--enforce-required-fields'])
run(['typegen', 'generate'])
