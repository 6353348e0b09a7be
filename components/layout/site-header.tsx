import { getTranslations } from 'next-intl/server'
import { Container } from '@/components/ui/container'
import { Icon } from '@/components/ui/icon'
import { Link } from '@/lib/i18n/link'
import { LanguageToggle } from './language-toggle'
import { MobileMenu } from './mobile-menu'
import { NavCtaButton } from './nav-cta-button'
import type { NavService } from './nav-types'
import { ServicesMenu } from './services-menu'

/** The fixed top bar: brand, Services dropdown, anchors, pages, language toggle and call to action. */
export async function SiteHeader({ brandName, services }: { brandName: string; services: NavService[] }) {
  const t = await getTranslations('Nav')
  const linkClass =
    'inline-flex min-h-10 items-center rounded-full px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink'
  // Opaque rather than backdrop-blurred: a fixed blurred layer is re-rasterised on every scroll frame
  // and delays the first paint on slow phones.
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-line/80 bg-paper">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50 focus:rounded-full focus:bg-ink focus:px-4 focus:py-2 focus:text-paper"
      >
        {t('skipToContent')}
      </a>
      <Container className="flex h-[4.5rem] items-center justify-between gap-4">
        <Link
          href="/"
          className="font-display text-xl font-semibold tracking-tight text-ink sm:text-2xl"
          data-testid="brand"
        >
          {brandName}
        </Link>
        <nav aria-label={t('mainNav')} className="hidden items-center gap-1 lg:flex">
          {/* The icon is drawn here, on the server: importing Icon into the client menu would ship every icon's paths. */}
          <ServicesMenu
            label={t('services')}
            services={services}
            itemIcon={<Icon name="check" className="size-4 text-clay" />}
          />
          <Link href="/#benefits" className={linkClass}>
            {t('benefits')}
          </Link>
          <Link href="/#testimonials" className={linkClass}>
            {t('testimonials')}
          </Link>
          <Link href="/about" className={linkClass}>
            {t('about')}
          </Link>
          <Link href="/contact" className={linkClass}>
            {t('contact')}
          </Link>
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden items-center gap-2 lg:flex">
            <LanguageToggle label={t('switchLanguage')} />
            <NavCtaButton label={t('cta')} />
          </div>
          <MobileMenu
            services={services}
            labels={{
              open: t('openMenu'),
              close: t('closeMenu'),
              nav: t('mobileNav'),
              services: t('services'),
              benefits: t('benefits'),
              testimonials: t('testimonials'),
              about: t('about'),
              contact: t('contact'),
              cta: t('cta'),
              switchLanguage: t('switchLanguage'),
            }}
          />
        </div>
      </Container>
    </header>
  )
}
