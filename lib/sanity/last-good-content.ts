/**
 * The last answer this server read for each query and its parameters, kept in memory for draft mode
 * alone: Next's data cache, which keeps a page's last good version when the Content Lake fails, is
 * bypassed in draft mode, so an editor whose drafts cannot be read would get an error page. Bounded:
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
