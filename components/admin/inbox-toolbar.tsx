'use client'

import { INBOX_VIEWS, type InboxView } from '@/lib/admin/inbox-api'
import { VIEW_LABELS } from '@/lib/admin/inbox-format'

type Props = {
  search: string
  onSearch: (value: string) => void
  view: InboxView
  onView: (view: InboxView) => void
  unnotifiedOnly: boolean
  onUnnotifiedOnly: (value: boolean) => void
}

/** Above the list: the search, which messages to show (« Afficher »), and « Non notifiées ». */
export function InboxToolbar({ search, onSearch, view, onView, unnotifiedOnly, onUnnotifiedOnly }: Props) {
  return (
    <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-3">
      <div className="min-w-0 flex-1 basis-64">
        <label htmlFor="inbox-search" className="sr-only">
          Rechercher
        </label>
        <input
          id="inbox-search"
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder="Rechercher par nom, email ou message"
          className="block w-full rounded-xl border border-control bg-white px-4 py-3 text-ink focus:border-clay focus:outline-none"
        />
      </div>
      <span className="inline-flex max-w-full items-center gap-2 text-sm">
        <label htmlFor="inbox-view" className="font-semibold text-ink">
          Afficher
        </label>
        <select
          id="inbox-view"
          value={view}
          onChange={(event) => onView(event.target.value as InboxView)}
          className="min-h-11 min-w-0 rounded-xl border border-control bg-white px-3 text-ink"
          data-testid="inbox-view"
        >
          {INBOX_VIEWS.map((option) => (
            <option key={option} value={option}>
              {VIEW_LABELS[option]}
            </option>
          ))}
        </select>
      </span>
      <label className="inline-flex min-h-11 items-center gap-2 text-sm font-semibold text-ink">
        <input
          type="checkbox"
          checked={unnotifiedOnly}
          onChange={(event) => onUnnotifiedOnly(event.target.checked)}
          className="size-5 accent-clay"
          data-testid="filter-unnotified"
        />
        Non notifiées
      </label>
    </div>
  )
}
