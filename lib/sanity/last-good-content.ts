/**
 * The last answer this server read for each query and its parameters, kept in memory for when the
 * Content Lake cannot answer and Next's data cache gives no answer either: in draft mode, which bypasses
 * it, and when Next asks the Content Lake itself for a page it is to keep (lib/sanity/fetch.ts). Bounded:
 * at most `capacity` answers, the least recently read dropped first; callers keep only answers that hold
 * something (an unknown slug's null is not kept), and keep published and draft answers apart, so that
 * the public site's reads never push out what an editor last saw.
 */
export class LastGoodContent<T = unknown> {
  private readonly answers = new Map<string, T>()

  constructor(private readonly capacity: number) {}

  remember(key: string, answer: T): void {
    this.answers.delete(key)
    this.answers.set(key, answer)
    if (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value as string)
  }

  /** The last answer kept under `key`, or undefined when this server has read none. */
  recall(key: string): T | undefined {
    if (!this.answers.has(key)) return undefined
    const answer = this.answers.get(key) as T
    this.remember(key, answer)
    return answer
  }
}
