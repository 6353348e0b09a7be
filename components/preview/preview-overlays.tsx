'use client'

import { VisualEditing } from 'next-sanity/visual-editing/client-component'
import type { ComponentProps } from 'react'
import { LiveDrafts } from './live-drafts'
import { OptimisticText } from './optimistic-text'
import { StaleTranslationMarks } from './stale-translation-marks'

export type PreviewOverlaysProps = Pick<ComponentProps<typeof VisualEditing>, 'onPerspectiveChange'>

/** The browser side of a previewed page: live drafts, click-to-edit overlays, live typing, and the
 *  English texts to review marked where they appear. */
export default function PreviewOverlays({ onPerspectiveChange }: PreviewOverlaysProps) {
  return (
    <>
      <LiveDrafts />
      <VisualEditing onPerspectiveChange={onPerspectiveChange} />
      <OptimisticText />
      <StaleTranslationMarks />
    </>
  )
}
