import { getTranslations } from 'next-intl/server'
import { Container } from '@/components/ui/container'
import { Link } from '@/lib/i18n/link'
import type { SiteSettings } from '@/lib/sanity/content-types'
import type { NavService } from './nav-types'

/** Footer: the pages of spec §2, social links (professional network, photo network, email) and ©. */
export async function SiteFooter({ settings, services }: { settings: SiteSettings; services: NavService[] }) {
  const t = await getTranslations('Footer')
  const common = await getTranslations('Common')
  const heading = 'text-sm font-semibold tracking-[0.14em] text-sand-strong uppercase'
  const link = 'text-paper/85 underline-offset-4 transition-colors hover:text-white hover:underline'
  return (
    <footer className="bg-night text-paper">
      <Container className="grid gap-12 py-16 md:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div>
          <Link href="/" className="font-display text-2xl font-semibold text-white">
            {settings.brandName}
          </Link>
          <p className="mt-4 max-w-sm leading-relaxed text-paper/80">{settings.tagline}</p>
          {settings.claims?.length ? (
            <ul className="mt-6 flex flex-wrap gap-2">
              {settings.claims.map((claim) => (
                <li key={claim} className="rounded-full border border-paper/20 px-3 py-1 text-sm text-paper/85">
                  {claim}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services" className={heading}>
            {t('services')}
          </h2>
          <ul className="mt-4 space-y-3">
            {services.map((service) => (
              <li key={service.slug}>
                <Link href={`/${service.slug}`} className={link}>
                  {service.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-agency">
          <h2 id="footer-agency" className={heading}>
            {t('agency')}
          </h2>
          <ul className="mt-4 space-y-3">
            <li>
              <Link href="/about" className={link}>
                {(await getTranslations('Nav'))('about')}
              </Link>
            </li>
            <li>
              <Link href="/contact" className={link}>
                {(await getTranslations('Nav'))('contact')}
              </Link>
            </li>
            {settings.bookingUrl ? (
              <li>
                <a href={settings.bookingUrl} className={link} target="_blank" rel="noopener noreferrer">
                  {settings.bookingLabel} <span className="sr-only">{common('opensInNewTab')}</span>
                </a>
              </li>
            ) : null}
            <li>
              <Link href="/legal-notice" className={link}>
                {t('legalNotice')}
              </Link>
            </li>
            <li>
              <Link href="/privacy-policy" className={link}>
                {t('privacyPolicy')}
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className={heading}>{t('follow')}</h2>
          <ul className="mt-4 space-y-3">
            {settings.socialLinks?.linkedin ? (
              <li>
                <a href={settings.socialLinks.linkedin} className={link} target="_blank" rel="noopener noreferrer">
                  {t('linkedin')} <span className="sr-only">{common('opensInNewTab')}</span>
                </a>
              </li>
            ) : null}
            {settings.socialLinks?.instagram ? (
              <li>
                <a href={settings.socialLinks.instagram} className={link} target="_blank" rel="noopener noreferrer">
                  {t('instagram')} <span className="sr-only">{common('opensInNewTab')}</span>
                </a>
              </li>
            ) : null}
            {settings.email ? (
              <li>
                <a href={`mailto:${settings.email}`} className={link}>
                  {settings.email}
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </Container>
      <div className="border-t border-paper/15">
        <Container className="flex flex-col gap-2 py-6 text-sm text-paper/75 sm:flex-row sm:justify-between">
          <p>
            © {settings.copyrightYear} {settings.brandName}. {t('rights')}
          </p>
          <p>{settings.city}</p>
        </Container>
      </div>
    </footer>
  )
}
