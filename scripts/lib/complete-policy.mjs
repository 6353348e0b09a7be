// Completes the Content-Security-Policy of each HTML response with the hashes of the inline scripts
// (and style attributes) of that very HTML, before anything is sent (see lib/content-security-policy.ts).
// Pages stay static and served from Next.js's cache: this reads what Next.js wrote, whether at build
// time or when a publish regenerated the page, so the hashes always follow the HTML.
import { withInlineHashes } from '../../lib/content-security-policy.ts'
import { contentTypeOf, holdResponse, isBodyless } from './hold-response.mjs'

// Completed policies by ETag: a cached page is hashed once, not on every request. Bounded, oldest out.
const completed = new Map()
const MAX_COMPLETED = 500

function completedPolicy(policy, body, etag) {
  const key = etag ? `${etag}\n${policy}` : null
  const known = key && completed.get(key)
  if (known) return known
  const result = withInlineHashes(policy, body.toString('utf8'))
  if (key) {
    if (completed.size >= MAX_COMPLETED) completed.delete(completed.keys().next().value)
    completed.set(key, result)
  }
  return result
}

const EMPTY = Buffer.alloc(0)
const isHtml = (contentType) => /^\s*text\/html\b/i.test(contentType)

/**
 * Makes `response` hold back an HTML body until it ends, then set its policy and send it in one piece
 * (any other response passes straight through). `draftModePolicy` gives the policy for a request in
 * draft mode (editors previewing), or null.
 */
export function completePolicyOfHtml(request, response, draftModePolicy) {
  holdResponse(response, {
    decide(headers) {
      // A 304 updates the headers a browser stored with the page: the stored policy, completed for that
      // very body (same ETag), must stay, not be replaced by the policy without its hashes.
      if (response.statusCode === 304) response.removeHeader('content-security-policy')
      const hold = isHtml(contentTypeOf(response, headers)) && !isBodyless(request, response)
      // Anything else (API answers, files, HEAD) runs no inline code: the portable policy's
      // 'unsafe-inline' goes all the same.
      const policy = response.getHeader('content-security-policy')
      if (!hold && typeof policy === 'string') response.setHeader('Content-Security-Policy', completedPolicy(policy, EMPTY, null))
      return hold
    },
    finish(body) {
      const policy = draftModePolicy ?? response.getHeader('content-security-policy')
      if (typeof policy === 'string') {
        const etag = response.getHeader('etag')
        response.setHeader('Content-Security-Policy', completedPolicy(policy, body, typeof etag === 'string' ? etag : null))
      }
      return body
    },
  })
}
