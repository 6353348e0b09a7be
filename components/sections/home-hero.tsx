import { Container } from '@/components/ui/container'
import { Glow } from '@/components/ui/glow'
import { buttonClasses } from '@/components/ui/button-styles'
import { Icon } from '@/components/ui/icon'
import type { HomeContent } from '@/lib/sanity/content-types'

type Hero = NonNullable<NonNullable<HomeContent['page']>['hero']>

/** Home hero: title, subtitle, the call to action that scrolls to #services and three trust lines. */
export function HomeHero({
  hero,
  bookingUrl,
  bookingLabel,
}: {
  hero: Hero
  bookingUrl?: string | null
  bookingLabel?: string | null
}) {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <Glow className="-top-40 -right-40 size-[36rem]" />
      <Container className="relative grid items-center gap-12 py-16 sm:py-24 lg:grid-cols-[1.25fr_1fr] lg:py-28">
        <div className="animate-rise">
          <p className="mb-5 inline-flex items-center gap-2 rounded-full border border-line bg-white px-4 py-1.5 text-sm font-semibold text-clay-strong">
            <Icon name="feather" className="size-4" />
            {hero.eyebrow}
          </p>
          <h1 id="hero-title" className="text-4xl leading-[1.08] font-semibold text-ink sm:text-5xl lg:text-6xl">
            {hero.title}
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-muted sm:text-xl">{hero.subtitle}</p>
          <div className="mt-8 flex animate-fade-in flex-wrap gap-3">
            <a href="#services" className={buttonClasses('primary', 'lg')} data-testid="hero-cta">
              {hero.ctaLabel}
              <svg
                viewBox="0 0 20 20"
                aria-hidden="true"
                className="size-5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
              >
                <path d="M10 4v12M5 11l5 5 5-5" />
              </svg>
            </a>
            {bookingUrl ? (
              <a
                href={bookingUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('secondary', 'lg')}
              >
                {bookingLabel}
              </a>
            ) : null}
          </div>
          <ul className="mt-10 grid animate-fade-in gap-3 sm:grid-cols-3">
            {(hero.trustLines ?? []).map((line) => (
              <li key={line} className="flex items-start gap-2 text-[0.95rem] font-medium text-ink-soft">
                <Icon name="check" className="mt-0.5 size-5 shrink-0 text-clay" />
                {line}
              </li>
            ))}
          </ul>
        </div>
        <div aria-hidden="true" className="relative mx-auto hidden w-full max-w-sm lg:block">
          <div className="rotate-2 rounded-card border border-line bg-white p-8 shadow-lift">
            <div className="h-3 w-24 rounded-full bg-clay/80" />
            <div className="mt-6 space-y-3">
              <div className="h-3 rounded-full bg-sand-strong" />
              <div className="h-3 w-11/12 rounded-full bg-sand-strong" />
              <div className="h-3 w-4/5 rounded-full bg-sand-strong" />
              <div className="h-3 w-10/12 rounded-full bg-sand-strong" />
            </div>
            <div className="mt-8 flex items-center gap-3">
              <span
                className="inline-flex size-11 items-center justify-center rounded-full bg-ink text-paper"
                data-testid="hero-illustration-avatar"
              >
                <Icon name="pen" className="size-5" />
              </span>
              <div className="space-y-2">
                <div className="h-2.5 w-28 rounded-full bg-ink/70" />
                <div className="h-2.5 w-20 rounded-full bg-sand-strong" />
              </div>
            </div>
          </div>
          {/* Pinned to the right-hand corner: the card's bottom left holds the author's circle. */}
          <div
            className="absolute -right-6 -bottom-10 -rotate-3 rounded-2xl bg-ink px-6 py-5 text-paper shadow-lift"
            data-testid="hero-projects-badge"
          >
            <p className="font-display text-3xl font-semibold">{hero.projectsClaim?.split(' ')[0]}</p>
            <p className="text-sm text-paper/80">{hero.projectsClaim?.split(' ').slice(1).join(' ')}</p>
          </div>
        </div>
        <p className="text-sm font-semibold text-clay-strong lg:sr-only" data-testid="projects-claim">
          {hero.projectsClaim}
        </p>
      </Container>
    </section>
  )
}
