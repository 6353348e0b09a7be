import { PortableText, type PortableTextComponents } from '@portabletext/react'
import type { PortableTextBlock } from '@portabletext/types'

const components: PortableTextComponents = {
  block: {
    normal: ({ children }) => <p className="mt-4 leading-relaxed text-ink-soft first:mt-0">{children}</p>,
    h3: ({ children }) => <h3 className="mt-8 font-display text-xl font-semibold text-ink">{children}</h3>,
  },
  list: {
    bullet: ({ children }) => (
      <ul className="mt-4 list-disc space-y-2 pl-6 text-ink-soft marker:text-clay">{children}</ul>
    ),
  },
  marks: {
    link: ({ children, value }) => {
      const href = typeof value?.href === 'string' ? value.href : '#'
      const external = /^https?:\/\//.test(href)
      return (
        <a
          href={href}
          className="font-medium text-clay-strong underline underline-offset-4 hover:text-clay"
          {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        >
          {children}
        </a>
      )
    },
  },
}

/** Portable Text from Sanity, in the site's typography. */
export function RichText({ value }: { value: unknown }) {
  if (!Array.isArray(value)) return null
  return <PortableText value={value as PortableTextBlock[]} components={components} />
}
