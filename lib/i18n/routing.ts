/*
 * French lives at / and English at /en, without locale detection: the spec makes French the default
 * for everyone, and a shared French link must not turn into English for an English-language browser.
 * The routing itself is the router's (next.config.ts rewrites and redirects); next-intl only supplies
 * the messages (lib/i18n/request.ts).
 */
export const locales = ['fr', 'en'] as const
export type Locale = (typeof locales)[number]
export const defaultLocale: Locale = 'fr'

/** next-intl's `hasLocale`, for one list: here so that client components need none of next-intl's entry. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value)
}
