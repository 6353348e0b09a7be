'use client'

import { studioPath } from '@sanity/client/csm'
import { emptyActor, useOptimisticActor, type MutatorActor } from '@sanity/visual-editing/react'
import { vercelStegaDecode, vercelStegaSplit } from '@vercel/stega'
import { useEffect } from 'react'
import { frenchTypography } from '@/lib/i18n/french-typography'

/*
 * Live typing in the Presentation tool. <SanityLive> refreshes the page from the server after each
 * change reaches the Content Lake, which takes a server round trip and a render (~0.3–0.6 s here).
 * The Presentation tool also relays each change to the framed page straight away (the optimistic
 * actor of @sanity/visual-editing). This puts the new value into the text the field shows on the page,
 * keeping its invisible source mark, ~0.1 s after the change; the server's refresh that follows
 * replaces it with the real rendering. (The Studio itself sends typing at most once a second: its
 * autocommit throttle, hosted or local.)
 *
 * It patches text nodes that show one whole field (as every component here renders them), French
 * typography included. Anything richer (a new list item, an image) waits for the refresh.
 */
export function OptimisticText() {
  const actor = useOptimisticActor()
  useEffect(() => {
    if (actor === emptyActor) return
    // The Studio's commits reach the frame as `mutation` events (the document's new state is in the
    // document's own actor), a fresh snapshot as `rebased.remote`, edits made in the page as `rebased.local`.
    const mutator = actor as MutatorActor
    const current = (id: string) => {
      const child = mutator.getSnapshot().context.documents[id]
      const context = child?.getSnapshot().context
      return context?.local ?? context?.remote
    }
    const subscriptions = [
      mutator.on('mutation', (event) => patchTexts(event.id, current(event.id))),
      mutator.on('rebased.remote', (event) => patchTexts(event.id, event.document)),
      mutator.on('rebased.local', (event) => patchTexts(event.id, event.document)),
    ]
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe())
  }, [actor])
  return null
}

type EditTarget = { id: string; path: string }

/** The document and field a stega mark points at (its edit intent URL: `…;id=<id>;type=…;path=<path>`). */
function editTarget(encoded: string): EditTarget | null {
  const decoded = vercelStegaDecode(encoded) as { href?: unknown } | undefined
  const href = typeof decoded?.href === 'string' ? decoded.href : ''
  const id = /;id=([^;?]+)/.exec(href)?.[1]
  const path = /;path=([^;?]+)/.exec(href)?.[1]
  return id && path ? { id: decodeURIComponent(id), path: decodeURIComponent(path) } : null
}

const publishedId = (id: string) => id.replace(/^(drafts|versions\.[^.]+)\./, '')

function patchTexts(id: string, document: unknown) {
  const target = publishedId(id)
  const french = window.document.documentElement.lang === 'fr'
  const walker = window.document.createTreeWalker(window.document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? ''
    const { cleaned, encoded } = vercelStegaSplit(text)
    if (!encoded) continue
    const mark = editTarget(encoded)
    if (!mark || publishedId(mark.id) !== target) continue
    const value = studioPath.get(document, mark.path)
    if (typeof value !== 'string') continue
    const shown = french ? frenchTypography(value) : value
    if (shown !== cleaned) node.nodeValue = `${shown}${encoded}`
  }
}
