import { aboutPage } from './documents/about-page'
import { benefit } from './documents/benefit'
import { clientLogo } from './documents/client-logo'
import { contactPage } from './documents/contact-page'
import { homePage } from './documents/home-page'
import { legalPage } from './documents/legal-page'
import { service } from './documents/service'
import { siteSettings } from './documents/site-settings'
import { testimonial } from './documents/testimonial'
import { callToAction } from './objects/call-to-action'
import { card } from './objects/card'
import { legalSection } from './objects/legal-section'
import { localeBlockContent } from './objects/locale-block-content'
import { localeString } from './objects/locale-string'
import { localeText } from './objects/locale-text'
import { seo } from './objects/seo'
import { servicePackage } from './objects/service-package'
import { withTranslationPreview } from '../studio/translation/translation-preview'

/** Every schema type of the Studio. */
export const schemaTypes = [
  localeString,
  localeText,
  localeBlockContent,
  seo,
  card,
  servicePackage,
  legalSection,
  callToAction,
  // Documents: their list entries say « EN à revoir » while an English field needs an editor.
  ...[siteSettings, homePage, service, benefit, clientLogo, testimonial, aboutPage, contactPage, legalPage].map(
    withTranslationPreview,
  ),
]
