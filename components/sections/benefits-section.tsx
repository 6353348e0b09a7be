import { Container } from '@/components/ui/container'
import { FeatureCard } from '@/components/ui/feature-card'
import { SectionHeading } from '@/components/ui/section-heading'
import type { HomeContent } from '@/lib/sanity/content-types'

type Props = {
  heading: NonNullable<HomeContent['page']>['benefitsSection']
  benefits: HomeContent['benefits']
}

/** #benefits: the six reasons to work with the agency, with their claims. */
export function BenefitsSection({ heading, benefits }: Props) {
  return (
    <section
      id="benefits"
      aria-labelledby="benefits-title"
      className="render-when-visible scroll-mt-24 bg-sand py-20 sm:py-24"
    >
      <Container>
        <SectionHeading id="benefits-title" title={heading?.title ?? null} intro={heading?.intro} />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {benefits.map((benefit) => (
            <li key={benefit._id}>
              <FeatureCard
                icon={benefit.icon}
                title={benefit.title}
                description={benefit.description}
                highlight={benefit.highlight}
              />
            </li>
          ))}
        </ul>
      </Container>
    </section>
  )
}
