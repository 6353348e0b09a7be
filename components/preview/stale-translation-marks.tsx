'use client'

import { emptyActor, useDocuments, useOptimisticActor } from '@sanity/visual-editing/react'
import { vercelStegaDecode, vercelStegaSplit } from '@vercel/stega'
import { useEffect } from 'react'
import { fieldsToReview, pathToString } from '@/lib/i18n/translation-status'

/** The attribute that outlines a text (app/site-design.css): its value is the label shown beside it. */
const MARK = 'data-translation-review'
const LABEL = 'à revoir'

type Shown = { node: Text; id: string; field: string }

/**
 * In the Presentation tool, on an English page: each text whose English no longer follows its French
 * (or has none) is outlined, with « à revoir » beside it, so an editor reviewing /en sees what to check
 * where it appears. Which document and field a text shows comes from its invisible source mark (draft
 * mode only); the documents, drafts included, from the Studio through the Presentation channel
 * (useDocuments): no request of its own, no token in the page. Outside the Presentation tool (no
 * channel), or on a French page, it does nothing.
 */
export function StaleTranslationMarks() {
  const actor = useOptimisticActor()
  const { getDocument } = useDocuments()
  useEffect(() => {
    if (actor === emptyActor || document.documentElement.lang !== 'en') return
    let cancelled = false
    let scheduled: ReturnType<typeof setTimeout> | undefined
    const mark = async () => {
      const shown = shownFields()
      const ids = [...new Set(shown.map(({ id }) => id))]
      const stale = new Map<string, Set<string>>()
      await Promise.all(
        ids.map(async (id) => {
          const snapshot = await getDocument(id)
            .getSnapshot()
            .catch(() => null)
          stale.set(id, new Set(fieldsToReview(snapshot).map(({ path }) => pathToString(path))))
        }),
      )
      if (cancelled) return
      const outlined = new Set<Element>()
      for (const { node, id, field } of shown) {
        const element = node.parentElement
        if (element && stale.get(id)?.has(field)) outlined.add(element)
      }
      for (const element of document.querySelectorAll(`[${MARK}]`))
        if (!outlined.has(element)) element.removeAttribute(MARK)
      for (const element of outlined) element.setAttribute(MARK, LABEL)
    }
    // Again after each re-render of the page (live drafts, navigation), once it has settled.
    const observer = new MutationObserver((records) => {
      if (records.every((record) => record.type === 'attributes')) return
      clearTimeout(scheduled)
      scheduled = setTimeout(() => void mark(), 300)
    })
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    void mark()
    return () => {
      cancelled = true
      clearTimeout(scheduled)
      observer.disconnect()
    }
  }, [actor, getDocument])
  return null
}

/** The texts of the page that show one bilingual field's English: the document, and the field's path. */
function shownFields(): Shown[] {
  const shown: Shown[] = []
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const { encoded } = vercelStegaSplit(node.nodeValue ?? '')
    if (!encoded) continue
    const href = (vercelStegaDecode(encoded) as { href?: unknown } | undefined)?.href
    if (typeof href !== 'string') continue
    const id = /;id=([^;?]+)/.exec(href)?.[1]
    const path = /;path=([^;?]+)/.exec(href)?.[1]
    if (!id || !path) continue
    // `hero.title.en`, or inside rich text `body.en[_key=="a"].children[_key=="b"].text`: the field is
    // what comes before its `.en`.
    const field = /^(.*)\.en(\[|$)/.exec(decodeURIComponent(path))?.[1]
    if (field) shown.push({ node: node as Text, id: decodeURIComponent(id).replace(/^drafts\./, ''), field })
  }
  return shown
}
