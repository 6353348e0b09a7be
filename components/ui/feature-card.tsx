import { Icon } from './icon'

type FeatureCardProps = {
  icon?: string | null
  title: string | null
  description: string | null
  highlight?: string | null
  headingLevel?: 'h3' | 'h4'
}

/** The card used for services, benefits, features, journey steps and values. */
export function FeatureCard({ icon, title, description, highlight, headingLevel: Heading = 'h3' }: FeatureCardProps) {
  return (
    <div className="flex h-full flex-col rounded-card border border-line bg-white p-6 shadow-card sm:p-7">
      <div className="flex items-start justify-between gap-4">
        <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-clay-soft text-clay">
          <Icon name={icon} />
        </span>
        {highlight ? (
          <span className="rounded-full bg-sand px-3 py-1 text-sm font-semibold text-clay-strong">{highlight}</span>
        ) : null}
      </div>
      <Heading className="mt-5 font-display text-xl font-semibold text-ink">{title}</Heading>
      <p className="mt-2 leading-relaxed text-muted">{description}</p>
    </div>
  )
}
