'use client'

import { frFRLocale } from '@sanity/locale-fr-fr'
import { defineConfig } from 'sanity'
import { presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'
import { sanityApiHost, sanityDataset, sanityProjectId } from './lib/sanity/env'
import { schemaTypes } from './schemas'
import { frenchBundles } from './studio/locale/french-bundles'
import { locations, mainDocuments } from './studio/presentation'
import { singletonTypes, structure } from './studio/structure'
import { TranslationBadge } from './studio/translation/translation-preview'

const TOOL_TITLES: Record<string, string> = { Releases: 'Publications', 'Scheduled Drafts': 'Brouillons programmés' }

/** The embedded Studio at /studio. Singletons can be edited and published, never created or deleted. */
export default defineConfig({
  name: 'default',
  title: 'Plume & Cap',
  basePath: '/studio',
  projectId: sanityProjectId,
  dataset: sanityDataset,
  // `https://api.sanity.io` unless NEXT_PUBLIC_SANITY_API_HOST names another: the project's requests go
  // to `<projectId>.<host>`, the sign-in, the features and everything else as Sanity's API answers them.
  apiHost: sanityApiHost,
  // Field-by-field `match` on titles and slugs, hosted and offline alike: for a few dozen documents it
  // finds what an editor types as well as the full-text engine does, and groq-js (the local Content
  // Lake) runs it; the default strategy's `text::query()` has no engine there (docs/decisions.md).
  search: { strategy: 'groqLegacy' },
  // One way to sign in (the local Content Lake's editor, or a hosted project with one provider): go
  // straight to it. Sanity 6.16 writes its provider chooser's heading in English, outside any locale.
  auth: { redirectOnSingle: true },
  plugins: [
    // The Studio's own words in French (Sanity's locale package), around the French structure and fields.
    frFRLocale(),
    structureTool({ structure }),
    // The site in a frame, in draft mode (app/api/draft-mode), on this same origin.
    presentationTool({
      title: 'Aperçu',
      previewUrl: { previewMode: { enable: '/api/draft-mode/enable', disable: '/api/draft-mode/disable' } },
      resolve: { locations, mainDocuments },
    }),
  ],
  i18n: { bundles: frenchBundles },
  // Sanity names its releases tool in English, outside any locale: in the words @sanity/locale-fr-fr uses
  // for releases (« Voir les publications de contenu ») and scheduled drafts (the tool's name without them).
  tools: (tools) => tools.map((tool) => ({ ...tool, title: TOOL_TITLES[tool.title] ?? tool.title })),
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({ schemaType }) => !singletonTypes.has(schemaType)),
  },
  document: {
    badges: (badges) => [...badges, TranslationBadge],
    actions: (actions, { schemaType }) =>
      singletonTypes.has(schemaType)
        ? actions.filter(({ action }) => action && ['publish', 'discardChanges', 'restore'].includes(action))
        : actions,
  },
})
