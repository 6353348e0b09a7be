'use client'

import { defineConfig } from 'sanity'
import { structureTool } from 'sanity/structure'
import { isSanityConfigured, sanityDataset, sanityProjectId } from './lib/sanity/env'
import { schemaTypes } from './schemas'
import { singletonTypes, structure } from './studio/structure'

/** The embedded Studio at /studio. Singletons can be edited and published, never created or deleted. */
export default defineConfig({
  name: 'default',
  title: 'Plume & Cap',
  basePath: '/studio',
  // A placeholder id keeps the config valid offline; the Studio route shows setup help instead.
  projectId: isSanityConfigured ? sanityProjectId : 'unconfigured',
  dataset: sanityDataset,
  plugins: [structureTool({ structure })],
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({ schemaType }) => !singletonTypes.has(schemaType)),
  },
  document: {
    actions: (actions, { schemaType }) =>
      singletonTypes.has(schemaType)
        ? actions.filter(({ action }) => action && ['publish', 'discardChanges', 'restore'].includes(action))
        : actions,
  },
})
