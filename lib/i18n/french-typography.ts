/**
 * French typography: a space before `: ; ! ? »` and after `«` must not break, or a line can start
 * with a lone colon or question mark (seen on the home hero on a phone). Editors type ordinary spaces
 * in the Studio, so the content layer applies the rule to French content rather than trusting every
 * document: a narrow no-break space (U+202F) before `; ! ?`, a no-break space (U+00A0) before `:` and
 * `»` and after `«`, as the Imprimerie nationale's rules have it. A string may start with the space
 * (a Portable Text span that follows a link: "contact@… | : nous répondons").
 */
const NARROW_NBSP = '\u202f'
const NBSP = '\u00a0'

export function frenchTypography(text: string): string {
  return text
    .replace(/(?<=\S|^)[ \t\u00a0\u202f]+([;!?])/g, `${NARROW_NBSP}$1`)
    .replace(/(?<=\S|^)[ \t\u00a0\u202f]+([:»])/g, `${NBSP}$1`)
    .replace(/«[ \t\u00a0\u202f]+(?=\S|$)/g, `«${NBSP}`)
}

/**
 * The same rule over every string of a query result (Portable Text spans included). System fields
 * (`_id`, `_type`, `_key`, …) are identifiers, not text, and stay as they are.
 */
export function withFrenchTypography<T>(value: T): T {
  if (typeof value === 'string') return frenchTypography(value) as T
  if (Array.isArray(value)) return value.map((item) => withFrenchTypography(item)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key.startsWith('_') ? item : withFrenchTypography(item)]),
    ) as T
  }
  return value
}
