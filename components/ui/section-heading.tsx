type SectionHeadingProps = {
  id?: string
  eyebrow?: string | null
  title: string | null
  intro?: string | null
  align?: 'left' | 'center'
  as?: 'h1' | 'h2'
}

/** Eyebrow, title and intro of a section, in the site's type scale. */
export function SectionHeading({ id, eyebrow, title, intro, align = 'center', as: Tag = 'h2' }: SectionHeadingProps) {
  const alignment = align === 'center' ? 'mx-auto text-center' : ''
  return (
    <div className={`max-w-2xl ${alignment}`}>
      {eyebrow ? <p className="mb-3 text-sm font-semibold tracking-[0.14em] text-clay uppercase">{eyebrow}</p> : null}
      <Tag id={id} className="text-3xl leading-tight font-semibold text-ink sm:text-4xl">
        {title}
      </Tag>
      {intro ? <p className="mt-4 text-lg leading-relaxed text-muted">{intro}</p> : null}
    </div>
  )
}
