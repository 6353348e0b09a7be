'use client'

import { VisualEditing } from 'next-sanity/visual-editing/client-component'
import type { ComponentProps } from 'react'
import { LiveDrafts } from './live-drafts'
import { OptimisticText } from './optimistic-text'
import { StaleTranslationMarks } from './stale-translation-marks'

export type PreviewOverlaysProps = Pick<ComponentProps<typeof VisualEditing>, 'onPerspectiveChange'> & {
  /** The page shows the last version loaded, drafts being unreadable when it was rendered. */
  stale: boolean
}

/** The browser side of a previewed page: live drafts, click-to-edit overlays, live typing, and the
 *  English texts to review marked where they appear. */
export default function PreviewOverlays({ onPerspectiveChange, stale }: PreviewOverlaysProps) {
  return (
    <>
      <LiveDrafts stale={stale} />
      <VisualEditing onPerspectiveChange={onPerspectiveChange} />
      <OptimisticText />
      <StaleTranslationMarks />
    </>
  )
}
