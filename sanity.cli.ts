import { defineCliConfig } from 'sanity/cli'

export default defineCliConfig({
  api: {
    projectId: process.env.NEXT_PUBLIC_SANITY_PROJECT_ID || 'unconfigured',
    dataset: process.env.NEXT_PUBLIC_SANITY_DATASET || 'production',
  },
  typegen: {
    path: ['./lib/sanity/queries.ts'],
    schema: './.sanity/schema.json',
    generates: './lib/sanity/sanity.types.ts',
    overloadClientMethods: true,
  },
})
