// @ts-check
/*
 * When a page's render was last given a last good answer instead of the Content Lake's (the Content Lake
 * unreachable: lib/sanity/fetch.ts). The cache handler (shared-cache-handler.mjs) keeps no page whose
 * render was under way then: the visitor gets it, but the cache keeps its last good version, stale, so
 * the next request renders again and the words the Content Lake has come back with it. Process-wide:
 * the site's bundled code and the cache handler, which Node loads apart, each have their own copy of
 * this module, and meet on the global.
 */
const KEY = Symbol.for('plume.last-good-answer-at')
const holder = /** @type {Record<symbol, number | undefined>} */ (/** @type {unknown} */ (globalThis))

/** A render is given a last good answer now. */
export function markLastGoodAnswer() {
  holder[KEY] = Date.now()
}

/** When a render was last given one (ms since the epoch), or -Infinity. */
export function lastGoodAnswerAt() {
  return holder[KEY] ?? -Infinity
}
