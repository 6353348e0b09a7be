/**
 * Scrolls to a section by id, smoothly unless the visitor asked for reduced motion. If the page moved
 * under the smooth scroll (images or fonts arriving just after a navigation), it lands once more on
 * the section when the scroll ends, so the visitor always ends up where the button promised.
 */
export function scrollToSection(id: string): void {
  const target = document.getElementById(id)
  if (!target) return
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches
  target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' })
  if (reduce) return
  const settle = () => {
    const offset = parseFloat(getComputedStyle(target).scrollMarginTop) || 0
    if (Math.abs(target.getBoundingClientRect().top - offset) > 8)
      target.scrollIntoView({ behavior: 'auto', block: 'start' })
  }
  if ('onscrollend' in window) window.addEventListener('scrollend', settle, { once: true })
  else setTimeout(settle, 1000)
}

/**
 * Scrolls to a section that may not be on the page yet (a page still arriving after a client-side
 * navigation): looks for it on every frame for at most `timeoutMs`. Returns a function that cancels.
 */
export function scrollToSectionWhenPresent(id: string, timeoutMs = 3000): () => void {
  const deadline = performance.now() + timeoutMs
  let frame = 0
  const attempt = () => {
    if (document.getElementById(id)) return scrollToSection(id)
    if (performance.now() < deadline) frame = requestAnimationFrame(attempt)
  }
  attempt()
  return () => cancelAnimationFrame(frame)
}

/** Delay between arriving on the home page and scrolling to #services (spec §9). */
export const NAV_CTA_SCROLL_DELAY_MS = 100

/**
 * When a field takes the focus half under the fixed header (the browser scrolls a field only when it is
 * off screen, not when the header covers it or its label), brings the label below the header: WCAG
 * 2.2's Focus Not Obscured, whether the focus came from a refused send, Tab or a click. The page's
 * `scroll-padding-top` is the header's room.
 */
export function revealFocusedField(field: EventTarget): void {
  if (!(
    field instanceof HTMLInputElement ||
    field instanceof HTMLTextAreaElement ||
    field instanceof HTMLSelectElement
  ))
    return
  const label = field.labels?.[0] ?? field
  const room = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0
  if (label.getBoundingClientRect().top < room) label.scrollIntoView({ block: 'start', behavior: 'instant' })
}
