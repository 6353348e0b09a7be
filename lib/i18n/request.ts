import { getRequestConfig } from 'next-intl/server'
import { defaultLocale, isLocale } from './routing'

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale
  const locale = isLocale(requested) ? requested : defaultLocale
  return {
    locale,
    // Dates and times are the agency's, in France: without it next-intl takes the server's zone.
    timeZone: 'Europe/Paris',
    messages: (await import(`../../messages/${locale}.json`)).default,
  }
})
