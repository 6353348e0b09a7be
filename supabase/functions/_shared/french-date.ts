/*
 * French dates as French typography writes them. Shared by the site, the inbox, the Studio and the
 * email function (Deno), which is why it lives here and imports nothing.
 */

/**
 * A date from an Intl format, with « 1er juillet » for the first of a month (Intl writes « 1 juillet »).
 * Only for a French format: in English the first stays « 1 July ».
 */
export function frenchDate(format: Intl.DateTimeFormat, date: Date): string {
  return format
    .formatToParts(date)
    .map(({ type, value }) => (type === 'day' && value === '1' ? '1er' : value))
    .join('')
}

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZone: 'Europe/Paris',
})

/** Paris's day as YYYY-MM-DD (en-CA writes that order): the date an administrator in France writes down. */
export const parisDay = (date: Date) => PARIS_DAY.format(date)
