import { legalPageRoute } from '@/components/sections/legal-page'

// The same route as its twin but for the document's slug: components/sections/legal-page.tsx.
const route = legalPageRoute('privacy-policy')

export const generateMetadata = route.generateMetadata
export default route.LegalPage
