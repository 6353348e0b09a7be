import type { Locale } from './routing'

/*
 * What a page says when it could not be shown (app/(site)/[locale]/error.tsx, app/global-error.tsx).
 * Written here rather than in messages/<locale>.json: an error boundary runs in the browser, where the
 * messages are not (the layout hands each client component its texts), and the layout that reads them
 * may be what failed.
 */
export const PAGE_ERROR_COPY = {
  fr: {
    title: "Cette page n'a pas pu s'afficher",
    description: "Une erreur s'est produite de notre côté. Veuillez réessayer dans un instant.",
    retry: 'Réessayer',
    backHome: "Retour à l'accueil",
    home: '/',
  },
  en: {
    title: 'This page could not be shown',
    description: 'Something went wrong on our side. Please try again in a moment.',
    retry: 'Try again',
    backHome: 'Back to home',
    home: '/en',
  },
} as const satisfies Record<Locale, Record<string, string>>

/** The copy for a locale parameter, or for a path when there is none (English under /en). */
export function pageErrorCopy(locale: unknown, pathname = '') {
  if (locale === 'en' || locale === 'fr') return PAGE_ERROR_COPY[locale]
  return PAGE_ERROR_COPY[/^\/en(\/|$)/.test(pathname) ? 'en' : 'fr']
}
