'use client'

import { VisualEditing } from 'next-sanity/visual-editing/client-component'
import type { ComponentProps } from 'react'
import { LiveDrafts, type LiveDraftsConfig } from './live-drafts'
import { OptimisticText } from './optimistic-text'

export type PreviewOverlaysProps = Pick<ComponentProps<typeof VisualEditing>, 'onPerspectiveChange'> & { live: LiveDraftsConfig | null }

/** The browser side of a previewed page: live drafts, click-to-edit overlays, live typing. */
export default function PreviewOverlays({ onPerspectiveChange, live }: PreviewOverlaysProps) {
  return (
    <>
      {live ? <LiveDrafts config={live} /> : null}
      <VisualEditing onPerspectiveChange={onPerspectiveChange} />
      <OptimisticText />
    </>
  )
}
