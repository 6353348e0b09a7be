import { draftMode } from 'next/headers'
import { getTranslations } from 'next-intl/server'
import { perspectiveChangeAction } from 'next-sanity/visual-editing/server-actions'
import { isSanityHosted, sanityApiVersion, sanityDataset, sanityProjectId, sanityServerApiHost } from '@/lib/sanity/env'
import { previewToken } from '@/lib/sanity/preview-token'
import { VisualEditingLoader } from './visual-editing-loader'

/**
 * What a page shows an editor in draft mode, and nothing outside it: a banner with a way out, live
 * updates of drafts (the page refreshes when content changes), the click-to-edit overlays of the
 * Presentation tool and live typing. Their browser code loads on its own, from draft-mode pages only.
 */
export async function DraftModeTools() {
  if (!(await draftMode()).isEnabled) return null
  const [t, token] = await Promise.all([getTranslations('Preview'), previewToken()])
  // The browser reaches the local Content Lake on its plain-HTTP side: one event stream needs no HTTP/2.
  const live = token
    ? { projectId: sanityProjectId, dataset: sanityDataset, apiVersion: sanityApiVersion, token, ...(isSanityHosted ? {} : { apiHost: sanityServerApiHost, useProjectHostname: false }) }
    : null

  return (
    <>
      <aside
        aria-label={t('label')}
        data-testid="draft-mode-banner"
        className="fixed bottom-4 left-4 z-50 flex max-w-[calc(100vw-2rem)] flex-wrap items-center gap-x-3 gap-y-1 rounded-2xl bg-night px-4 py-3 text-sm text-paper shadow-lift"
      >
        <strong className="font-semibold">{t('label')}</strong>
        <span className="text-paper/80">{t('detail')}</span>
        {/* A plain link to a route handler (no prefetch, no client navigation): it has a side effect. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- an API route, not a page */}
        <a href="/api/draft-mode/disable" className="font-semibold text-clay-soft underline underline-offset-4 hover:text-paper">
          {t('exit')}
        </a>
      </aside>
      <VisualEditingLoader onPerspectiveChange={perspectiveChangeAction} live={live} />
    </>
  )
}
