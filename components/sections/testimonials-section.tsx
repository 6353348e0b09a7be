import { getTranslations } from 'next-intl/server'
import { Container } from '@/components/ui/container'
import { SectionHeading } from '@/components/ui/section-heading'
import { StarRating } from '@/components/ui/star-rating'
import type { HomeContent } from '@/lib/sanity/content-types'

type Props = {
  heading: NonNullable<HomeContent['page']>['testimonialsSection']
  testimonials: HomeContent['testimonials']
}

/** #testimonials: three client quotes with their star ratings. */
export async function TestimonialsSection({ heading, testimonials }: Props) {
  const t = await getTranslations('Common')
  return (
    <section
      id="testimonials"
      aria-labelledby="testimonials-title"
      className="render-when-visible scroll-mt-24 py-20 sm:py-24"
    >
      <Container>
        <SectionHeading id="testimonials-title" title={heading?.title ?? null} intro={heading?.intro} />
        <ul className="mt-14 grid gap-6 lg:grid-cols-3">
          {testimonials.map((testimonial) => (
            <li key={testimonial._id} data-testid="testimonial">
              <figure className="flex h-full flex-col rounded-card border border-line bg-white p-7 shadow-card">
                <StarRating rating={testimonial.rating ?? 0} label={t('rating', { rating: testimonial.rating ?? 0 })} />
                <blockquote className="mt-5 flex-1 text-lg leading-relaxed text-ink-soft">
                  <p>“{testimonial.content}”</p>
                </blockquote>
                <figcaption className="mt-6 border-t border-line pt-5">
                  <p className="font-semibold text-ink">{testimonial.name}</p>
                  <p className="text-sm text-muted">{testimonial.role}</p>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  )
}
