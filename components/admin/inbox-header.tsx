'use client'

import type { RefObject } from 'react'
import { buttonClasses } from '@/components/ui/button-styles'
import { overdueCountLabel } from '@/lib/admin/follow-up'
import type { InboxPage } from '@/lib/admin/inbox-api'
import { unreadCountLabel } from '@/lib/admin/inbox-format'

type Props = {
  /** The title, which takes the focus when nothing else can (after the last message went). */
  heading: RefObject<HTMLHeadingElement | null>
  data: InboxPage | null
  /** How many messages the list holds, as its view words it. */
  countLabel: string
  /** « À répondre », oldest first. */
  onShowWaiting: () => void
  onExport: () => void
  onSignOut: () => void
}

/**
 * The inbox's title and counts: what the list holds, the unread, and the messages waiting past the
 * site's promise (« Réponse sous 24h »), a click away from the list of them; export and sign-out.
 */
export function InboxHeader({ heading, data, countLabel, onShowWaiting, onExport, onSignOut }: Props) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 ref={heading} tabIndex={-1} className="text-3xl font-semibold text-ink sm:text-4xl">
          Messages
        </h1>
        {data ? (
          <p className="mt-2 text-muted" data-testid="submission-count">
            {countLabel}
            {data.unread > 0 ? (
              <span
                className="ml-2 rounded-full bg-clay px-2.5 py-0.5 text-sm font-semibold text-white"
                data-testid="unread-count"
              >
                {unreadCountLabel(data.unread)}
              </span>
            ) : null}
          </p>
        ) : null}
        {data && data.overdue > 0 ? (
          <button
            type="button"
            onClick={onShowWaiting}
            className="mt-2 min-h-9 rounded-full border border-red-300 bg-red-50 px-3 text-sm font-semibold text-red-800 underline-offset-2 hover:underline"
            data-testid="overdue-count"
          >
            {overdueCountLabel(data.overdue)}
          </button>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={onExport} className={buttonClasses('secondary', 'sm')} data-testid="export-csv">
          Exporter en CSV
        </button>
        <button type="button" onClick={onSignOut} className={buttonClasses('primary', 'sm')} data-testid="logout">
          Se déconnecter
        </button>
      </div>
    </div>
  )
}
