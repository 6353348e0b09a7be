import { locales } from '@/lib/i18n/routing'
import { shareImageRoute } from '@/lib/seo/share-image'
import { generateMetadata } from '../page'

// The page's share picture (og:image), drawn at build time in each language from its title.
export const dynamic = 'force-static'
export const dynamicParams = false
export const generateStaticParams = () => locales.map((locale) => ({ locale }))
export const GET = shareImageRoute(generateMetadata)
