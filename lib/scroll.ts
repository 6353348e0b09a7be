/** Scrolls to a section by id, smoothly unless the visitor asked for reduced motion. */
export function scrollToSection(id: string): void {
  const target = document.getElementById(id)
  if (!target) return
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches
  target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' })
}

/** Delay between arriving on the home page and scrolling to #services (spec §9). */
export const NAV_CTA_SCROLL_DELAY_MS = 100
