import { shareImageRoute } from '@/lib/seo/share-image'
import { generateMetadata } from '../page'

// The service page's share picture (og:image), drawn at build time in each language from its title.
export const dynamic = 'force-static'
export const dynamicParams = false
export { generateStaticParams } from '../page'
export const GET = shareImageRoute(generateMetadata)
