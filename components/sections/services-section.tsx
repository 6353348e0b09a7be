import { Container } from '@/components/ui/container'
import { Icon } from '@/components/ui/icon'
import { SectionHeading } from '@/components/ui/section-heading'
import { Link } from '@/lib/i18n/link'
import type { HomeContent } from '@/lib/sanity/content-types'

type Props = {
  heading: NonNullable<HomeContent['page']>['servicesSection']
  services: HomeContent['services']
}

/** #services: the six services; the four with a page link to it. */
export function ServicesSection({ heading, services }: Props) {
  return (
    <section id="services" aria-labelledby="services-title" className="render-when-visible scroll-mt-24 py-20 sm:py-24">
      <Container>
        <SectionHeading id="services-title" title={heading?.title ?? null} intro={heading?.intro} />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li
              key={service._id}
              className="group relative flex flex-col rounded-card border border-line bg-white p-7 shadow-card transition-shadow hover:shadow-lift"
            >
              <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-clay-soft text-clay">
                <Icon name={service.icon} />
              </span>
              <h3 className="mt-5 font-display text-xl font-semibold text-ink">{service.title}</h3>
              <p className="mt-2 flex-1 leading-relaxed text-muted">{service.description}</p>
              {service.slug ? (
                <Link
                  href={`/${service.slug}`}
                  className="mt-6 inline-flex items-center gap-1.5 font-semibold text-clay-strong after:absolute after:inset-0 after:rounded-card hover:underline"
                >
                  {heading?.linkLabel}
                  <span className="sr-only">: {service.title}</span>
                  <svg
                    viewBox="0 0 20 20"
                    aria-hidden="true"
                    className="size-4 transition-transform group-hover:translate-x-0.5"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                  >
                    <path d="M4 10h12M11 5l5 5-5 5" />
                  </svg>
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      </Container>
    </section>
  )
}
