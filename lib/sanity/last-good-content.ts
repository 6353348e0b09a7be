/*
 * The last answer this server read for each query, per perspective (published, drafts, a release), kept
 * in memory for draft mode alone: Next's data cache, which keeps a page's last good version when the
 * Content Lake fails, is bypassed in draft mode, so an editor whose drafts cannot be read would get an
 * error page. Bounded: only answers that hold something (an unknown slug's null is not kept: the
 * callers' rule), at most MAX_ENTRIES, the least recently read dropped first.
 */

const MAX_ENTRIES = 100

const answers = new Map<string, unknown>()

const keyOf = (perspective: string, query: string, params: object) =>
  `${perspective}\u0000${query}\u0000${JSON.stringify(params)}`

/** Keeps `answer`; the caller passes only answers that hold something. */
export function rememberContent(perspective: string, query: string, params: object, answer: unknown): void {
  const key = keyOf(perspective, query, params)
  answers.delete(key)
  answers.set(key, answer)
  if (answers.size > MAX_ENTRIES) answers.delete(answers.keys().next().value as string)
}

/** The last answer to `query` with `params` in `perspective`, or undefined when this server has read none. */
export function lastGoodContent<T>(perspective: string, query: string, params: object): T | undefined {
  const key = keyOf(perspective, query, params)
  if (!answers.has(key)) return undefined
  const result = answers.get(key) as T
  answers.delete(key)
  answers.set(key, result)
  return result
}
