import { defineCliConfig } from 'sanity/cli'

export default defineCliConfig({
  api: {
    projectId: process.env.NEXT_PUBLIC_SANITY_PROJECT_ID || 'unconfigured',
    dataset: process.env.NEXT_PUBLIC_SANITY_DATASET || 'production',
  },
  // The CLI loads sanity.config.ts in Node through Vite (schema extract, documents validate), by
  // default with every dependency transformed by Vite too (ssr.noExternal: true): here Node loads the
  // dependencies itself, as the site's server does, and Vite transforms the project's own files and
  // the CLI's, which import sanity.config.ts (TypeScript with extensionless imports, not for Node
  // alone). The same schema and the same verdicts, in 11 CPU-s a command rather than 21.
  vite: (config) => ({ ...config, ssr: { ...config.ssr, noExternal: ['@sanity/cli', '@sanity/cli-core'] } }),
  typegen: {
    path: ['./lib/sanity/queries.ts'],
    schema: './.sanity/schema.json',
    generates: './lib/sanity/sanity.types.ts',
    overloadClientMethods: true,
  },
})
