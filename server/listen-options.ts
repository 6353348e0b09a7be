import { parseArgs } from 'node:util'

/**
 * Where the production server listens, from its command line as `next start` takes it: `-p PORT`
 * (else the PORT variable, else 3000) and `-H host`. Read by server/main.ts, and by `npm run serve`
 * (scripts/serve.ts) to record which port its server holds.
 */
export function listenOptions(args: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', short: 'p', default: env.PORT || '3000' },
      hostname: { type: 'string', short: 'H' },
    },
    strict: true,
  })
  return { port: Number(values.port), hostname: values.hostname }
}
