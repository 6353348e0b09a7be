import { COOLDOWN_MS } from './contact-limits.ts'

/*
 * The contact page's 60-second cooldown after a successful send (spec §5). The time of the last
 * success is kept in localStorage, so reloading the page does not reset it.
 */
const KEY = 'plume:contact:last-success'

export function recordContactSuccess(now = Date.now()): void {
  try {
    localStorage.setItem(KEY, String(now))
  } catch {
    // Storage can be unavailable (private mode quotas); the cooldown then lasts for this page only.
  }
  lastSuccessInMemory = now
}

let lastSuccessInMemory = 0

/** Whole seconds left before another message may be sent; 0 when it may. */
export function cooldownSecondsLeft(now = Date.now()): number {
  let last = lastSuccessInMemory
  try {
    last = Math.max(last, Number(localStorage.getItem(KEY)) || 0)
  } catch {
    // see above
  }
  const left = last + COOLDOWN_MS - now
  return left > 0 ? Math.ceil(left / 1000) : 0
}
