import { stegaClean } from '@sanity/client/stega'
import { getTranslations } from 'next-intl/server'
import { Icon } from '@/components/ui/icon'
import type { SiteSettings } from '@/lib/sanity/content-types'

/** Email, phone and city, each actionable where it can be. */
export async function ContactDetails({ title, settings }: { title: string | null; settings: SiteSettings }) {
  const t = await getTranslations('Common')
  const row = 'flex items-center gap-4 rounded-2xl border border-line bg-white p-4'
  const badge = 'inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-clay-soft text-clay'
  return (
    <div>
      <h2 className="text-2xl font-semibold text-ink">{title}</h2>
      <ul className="mt-6 space-y-3">
        <li className={row}>
          <span className={badge}>
            <Icon name="mail" className="size-5" />
          </span>
          <div>
            <p className="text-sm text-muted">{t('email')}</p>
            <a
              href={`mailto:${settings.email}`}
              className="font-semibold text-ink hover:text-clay-strong hover:underline"
            >
              {settings.email}
            </a>
          </div>
        </li>
        <li className={row}>
          <span className={badge}>
            <Icon name="message" className="size-5" />
          </span>
          <div>
            <p className="text-sm text-muted">{t('phone')}</p>
            <a
              href={`tel:${stegaClean(settings.phone)?.replace(/\s+/g, '')}`}
              className="font-semibold text-ink hover:text-clay-strong hover:underline"
            >
              {settings.phone}
            </a>
          </div>
        </li>
        <li className={row}>
          <span className={badge}>
            <Icon name="globe" className="size-5" />
          </span>
          <div>
            <p className="text-sm text-muted">{t('city')}</p>
            <p className="font-semibold text-ink">{settings.city}</p>
          </div>
        </li>
      </ul>
    </div>
  )
}
