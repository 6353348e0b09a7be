'use client'

import { createClient } from '@sanity/client'
import { defineConfig } from 'sanity'
import { presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'
import { isSanityHosted, sanityBrowserApiHost, sanityDataset, sanityProjectId } from './lib/sanity/env'
import { schemaTypes } from './schemas'
import { locations, mainDocuments } from './studio/presentation'
import { singletonTypes, structure } from './studio/structure'

/**
 * With the local Content Lake the Studio talks to `https://localhost:<port>` (HTTP/2), without the
 * project subdomain, signed in with the token the local server issues (see local/README.md).
 */
const localContentLake = isSanityHosted
  ? {}
  : {
      apiHost: sanityBrowserApiHost,
      auth: { loginMethod: 'token' as const, apiHost: sanityBrowserApiHost },
      unstable_clientFactory: (options: Parameters<typeof createClient>[0]) =>
        createClient({ ...options, useProjectHostname: false }),
      // groq-js, behind the local server, has no full-text engine for the default `text::query` search.
      search: { strategy: 'groqLegacy' as const },
      // What the local Content Lake does not serve is not shown (local/README.md, What it leaves out):
      // releases (a blank tool, a 400 from /data/actions), scheduled publishing and drafts, tasks.
      releases: { enabled: false },
      scheduledPublishing: { enabled: false },
      scheduledDrafts: { enabled: false },
      tasks: { enabled: false },
    }

/** The embedded Studio at /studio. Singletons can be edited and published, never created or deleted. */
export default defineConfig({
  name: 'default',
  title: 'Plume & Cap',
  basePath: '/studio',
  projectId: sanityProjectId,
  dataset: sanityDataset,
  ...localContentLake,
  plugins: [
    structureTool({ structure }),
    // The site in a frame, in draft mode (app/api/draft-mode), on this same origin.
    presentationTool({
      title: 'Aperçu',
      previewUrl: { previewMode: { enable: '/api/draft-mode/enable', disable: '/api/draft-mode/disable' } },
      resolve: { locations, mainDocuments },
    }),
  ],
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({ schemaType }) => !singletonTypes.has(schemaType)),
  },
  document: {
    // Comments need the hosted Comments API (an addon dataset): the local Content Lake has none.
    ...(isSanityHosted ? {} : { comments: { enabled: false } }),
    actions: (actions, { schemaType }) =>
      singletonTypes.has(schemaType)
        ? actions.filter(({ action }) => action && ['publish', 'discardChanges', 'restore'].includes(action))
        : actions,
  },
})
