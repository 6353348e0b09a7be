import 'server-only'
import { cookies, draftMode } from 'next/headers'
import { cache } from 'react'
import { DRAFT_ACCESS_COOKIE, draftAccessExpiry, draftAccessSecret } from '@/lib/security/draft-access-cookie'

/**
 * Whether this request may see drafts, and until when (ms since the epoch), or null: Next's draft mode
 * is on AND our signed draft-access cookie is valid (see lib/security/draft-access-cookie.ts). The one check everything
 * that reads or shows drafts makes; `draftMode().isEnabled` alone is never enough.
 */
export const draftAccessUntil = cache(async function draftAccessUntil(): Promise<number | null> {
  // Draft mode first: outside it no cookie is read, and a prerendered page stays static.
  if (!(await draftMode()).isEnabled) return null
  return draftAccessExpiry((await cookies()).get(DRAFT_ACCESS_COOKIE)?.value, draftAccessSecret())
})

export async function hasDraftAccess(): Promise<boolean> {
  return (await draftAccessUntil()) !== null
}
