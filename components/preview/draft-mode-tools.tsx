import { getTranslations } from 'next-intl/server'
import { perspectiveChangeAction } from 'next-sanity/visual-editing/server-actions'
import { hasDraftAccess } from '@/lib/draft-mode/draft-access'
import { draftsUnreadable } from '@/lib/sanity/fetch'
import { VisualEditingLoader } from './visual-editing-loader'

/**
 * What a page shows an editor in draft mode, and nothing outside it: a banner with a way out (and, when
 * drafts cannot be read, that the page is the last version loaded), live updates of drafts (the page
 * refreshes when content changes, and once drafts can be read again), the click-to-edit overlays of the
 * Presentation tool and live typing. Their browser code loads on its own, from draft-mode pages only.
 * No token reaches the page: live updates come through the site (/api/draft-mode/live).
 */
export async function DraftModeTools() {
  if (!(await hasDraftAccess())) return null
  const t = await getTranslations('Preview')
  // The same answer the page's reads followed (lib/sanity/fetch.ts): drafts, or the last version loaded.
  const unreadable = (await draftsUnreadable()) !== null

  return (
    <>
      <aside
        aria-label={t('label')}
        data-testid="draft-mode-banner"
        className="fixed bottom-4 left-4 z-50 flex max-w-[calc(100vw-2rem)] flex-wrap items-center gap-x-3 gap-y-1 rounded-2xl bg-night px-4 py-3 text-sm text-paper shadow-lift"
      >
        <strong className="font-semibold">{t('label')}</strong>
        <span className="text-paper/80" data-testid="draft-mode-detail">
          {t(unreadable ? 'unreadable' : 'detail')}
        </span>
        {/* A plain link to a route handler (no prefetch, no client navigation): it has a side effect. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- an API route, not a page */}
        <a
          href="/api/draft-mode/disable"
          className="font-semibold text-clay-soft underline underline-offset-4 hover:text-paper"
        >
          {t('exit')}
        </a>
      </aside>
      <VisualEditingLoader onPerspectiveChange={perspectiveChangeAction} stale={unreadable} />
    </>
  )
}
