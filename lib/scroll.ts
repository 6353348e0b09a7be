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
