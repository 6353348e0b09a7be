/** The public origin used for canonical URLs, Open Graph and the sitemap. */
export const siteUrl = (process.env.NEXT_PUBLIC_SITE_URL || 'http://localhost:3000').replace(/\/+$/, '')
