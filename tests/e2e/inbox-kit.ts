import { createClient } from '@supabase/supabase-js'
import type { Page } from '@playwright/test'
import { foldForSearch } from '../../lib/admin/search-folding'
import { serviceRoleKey } from './fixtures'

/*
 * What the hidden inbox's browser tests (admin-*.spec.ts, the `inbox` project) share. They run in
 * Chromium against the local Supabase server started by scripts/test.ts, which they share with the
 * contact-form tests and with each other: each file seeds its own accounts and messages under a tag of
 * its own (`inboxOf`, `seedInbox`), so that it passes alone and in any order, and searches the list by
 * that tag where counts matter.
 */

const supabaseUrl = process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321'
export const service = createClient(supabaseUrl, serviceRoleKey(), {
  auth: { persistSession: false, autoRefreshToken: false },
})

export type Credentials = { email: string; password: string }

/**
 * A spec file's own tag, accounts and hostile message. `key` (lower-case letters, none the start of
 * another file's) ends the tag: no file's tag is then found in another file's messages, even two files
 * loaded in the same millisecond.
 */
export function inboxOf(key: string) {
  const TAG = `tag${Date.now().toString(36)}${key}`
  return {
    TAG,
    ADMIN: { email: `admin-${TAG}@example.fr`, password: 'Inbox-Admin-2026!' },
    MEMBER: { email: `member-${TAG}@example.fr`, password: 'Plain-Member-2026!' },
    XSS: `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> ${TAG}`,
  }
}
export type Inbox = ReturnType<typeof inboxOf>

/**
 * Creates the file's admin account and, when asked, an account without the admin role and 55 messages
 * tagged with its tag: Zoé Dupont's first (phone, package, English), the hostile HTML second, ten from one
 * repeated address, one minute apart and in the future so they come first in the unfiltered list.
 */
export async function seedInbox({ TAG, ADMIN, MEMBER, XSS }: Inbox, { member = false, messages = false } = {}) {
  const admin = await service.auth.admin.createUser({
    email: ADMIN.email,
    password: ADMIN.password,
    email_confirm: true,
  })
  if (admin.error) throw admin.error
  await service.from('user_roles').insert({ user_id: admin.data.user.id, role: 'admin' }).throwOnError()
  if (member) {
    const created = await service.auth.admin.createUser({
      email: MEMBER.email,
      password: MEMBER.password,
      email_confirm: true,
    })
    if (created.error) throw created.error
  }
  if (!messages) return
  const base = Date.now() + 24 * 3600_000
  const rows = Array.from({ length: 55 }, (_, i) => ({
    name: i === 0 ? 'Zoé Dupont' : `Client ${TAG} ${String(i).padStart(2, '0')}`,
    email: i === 0 ? `zoe-${TAG}@example.fr` : i % 5 === 0 ? `repeat-${TAG}@example.fr` : `c${i}-${TAG}@example.fr`,
    phone: i === 0 ? '06 12 34 56 78' : null,
    message: i === 1 ? XSS : `Message ${i} pour l'agence, ${TAG}.`,
    package: i === 0 ? 'Growth' : null,
    locale: i === 0 ? 'en' : 'fr',
    created_at: new Date(base - i * 60_000).toISOString(),
  }))
  await service.from('contact_submissions').insert(rows).throwOnError()
}

/**
 * The inbox's French date and time as formatSubmissionDate writes it: « 1er décembre 2026 à 00:17 » on the
 * first of a month, « 29 novembre 2026 à 23:17 » otherwise. Messages are dated from the clock, so a pattern
 * that forgot « 1er » failed one day a month.
 */
export const FRENCH_DATE_TIME = String.raw`(?:1er|[2-9]|[12]\d|3[01]) (?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} à \d{2}:\d{2}`

export const toastTitle = (page: Page) => page.getByTestId('toast-title').last()

/** What has the keyboard focus: a message names its sender, anything else its tag and text. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    return (
      element?.getAttribute('aria-label') ?? `${element?.tagName.toLowerCase()} ${element?.textContent?.slice(0, 40)}`
    )
  })

/** Types a search and waits until the inbox has asked the server for it (the input is debounced). */
export async function search(page: Page, term: string) {
  // The inbox asks for the term without accents and in lower case (lib/admin/search-folding.ts).
  const folded = foldForSearch(term)
  const searched = page.waitForResponse(
    (response) =>
      response.url().includes('/rest/v1/contact_submissions') && decodeURIComponent(response.url()).includes(folded),
  )
  await page.getByLabel('Rechercher').fill(term)
  await searched
}

export async function signIn(page: Page, credentials: Credentials) {
  await page.getByLabel('Email').fill(credentials.email)
  await page.getByLabel('Mot de passe').fill(credentials.password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
}
