'use client'

import { lazy, Suspense } from 'react'
import type { PreviewOverlaysProps } from './preview-overlays'

/*
 * The preview's browser code (@sanity/visual-editing, @sanity/client) is large and for editors only.
 * React.lazy keeps it in chunks of its own, fetched when a draft-mode page renders this; the layout
 * only carries this loader (next/dynamic would also add its runtime to every public page).
 */
const PreviewOverlays = lazy(() => import('./preview-overlays'))

export function VisualEditingLoader(props: PreviewOverlaysProps) {
  return (
    <Suspense fallback={null}>
      <PreviewOverlays {...props} />
    </Suspense>
  )
}
