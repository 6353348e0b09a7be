import { withInlineHashes } from '../lib/security/content-security-policy.ts'
import { headerText, type Stage } from './stage.ts'

/*
 * Completes the Content-Security-Policy of each HTML response with the hashes of the inline scripts
 * (and style attributes) of that very HTML (see lib/security/content-security-policy.ts). The policy is
 * the one Next.js sends (next.config.ts: the portable site policy, the editors' one in draft mode, the
 * Studio's under /studio); this stage only trades its 'unsafe-inline' for hashes. Pages stay static and
 * served from Next.js's cache: this reads what Next.js wrote, whether at build time or when a publish
 * regenerated the page, so the hashes always follow the HTML.
 */

const isHtml = (contentType: string) => /^\s*text\/html\b/i.test(contentType)
const EMPTY = Buffer.alloc(0)

/** How many completed policies are remembered by ETag: a cached page is hashed once, not per request. */
const MAX_COMPLETED = 500

export function policyStage(): Stage {
  // ETag + policy → completed policy ('' for no body). Bounded, oldest out.
  const completed = new Map<string, string>()

  function complete(policy: string, body: Buffer, etag: string | null): string {
    const key = etag === null ? null : `${etag}\n${policy}`
    const known = key === null ? undefined : completed.get(key)
    if (known !== undefined) return known
    const result = withInlineHashes(policy, body.toString('utf8'))
    if (key !== null) {
      if (completed.size >= MAX_COMPLETED) completed.delete(completed.keys().next().value as string)
      completed.set(key, result)
    }
    return result
  }

  return {
    name: 'policy hashes',
    wantsBody: (head) => isHtml(headerText(head.headers, 'content-type')),
    apply(response) {
      const policy = response.headers['content-security-policy']
      if (typeof policy !== 'string') return
      // A 304 updates the headers a browser stored with the page: the stored policy, completed for that
      // very body (same ETag), must stay, not be replaced by the policy without its hashes.
      if (response.status === 304) {
        delete response.headers['content-security-policy']
        return
      }
      if (response.body !== null && isHtml(headerText(response.headers, 'content-type'))) {
        const etag = response.headers.etag
        response.headers['content-security-policy'] = complete(
          policy,
          response.body,
          typeof etag === 'string' && etag !== '' ? etag : null,
        )
      } else {
        // Anything else (API answers, files, the headers of a HEAD) runs no inline code: the portable
        // policy's 'unsafe-inline' goes all the same (remembered under no ETag: it depends on no body).
        response.headers['content-security-policy'] = complete(policy, EMPTY, '')
      }
    },
  }
}
