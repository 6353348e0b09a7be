import type { CSSProperties } from 'react'
import { Container } from '@/components/ui/container'
import { SanityImage } from '@/components/ui/sanity-image'
import { centredRowStarts } from '@/lib/balanced-rows'
import { imageSource } from '@/lib/sanity/image'
import type { HomeContent } from '@/lib/sanity/content-types'

/*
 * At most 3 logos a row on phones, 4 from the sm breakpoint, 7 from lg, in rows as even as possible
 * and centred (7 logos: 3 + 2 + 2, then 4 + 3, then one row), so no logo is ever left alone on the
 * last row. Each breakpoint's grid has two columns per logo: a row of fewer logos starts one column
 * further in per missing logo, which centres it. The starts are worked out here, on the server, from
 * however many logos the editors publish.
 */
const PER_ROW = { base: 3, sm: 4, lg: 7 }

/** The strip of client logos (seven in the spec). */
export function ClientLogos({ title, clients }: { title: string | null | undefined; clients: HomeContent['clients'] }) {
  const starts = {
    base: centredRowStarts(clients.length, PER_ROW.base),
    sm: centredRowStarts(clients.length, PER_ROW.sm),
    lg: centredRowStarts(clients.length, PER_ROW.lg),
  }
  return (
    <section aria-labelledby="clients-title" className="render-when-visible border-y border-line bg-white py-14">
      <Container>
        <h2
          id="clients-title"
          className="text-center font-sans text-sm font-semibold tracking-[0.14em] text-muted uppercase"
        >
          {title}
        </h2>
        <ul className="mt-8 grid grid-cols-6 items-center gap-x-3 gap-y-8 sm:grid-cols-8 sm:gap-x-8 lg:grid-cols-14 lg:gap-x-4">
          {clients.map((client, index) => {
            const source = imageSource(client.logo, 144) // max-w-36: 9rem
            const start = {
              '--logo-start': starts.base[index],
              '--logo-start-sm': starts.sm[index],
              '--logo-start-lg': starts.lg[index],
            } as CSSProperties
            return (
              <li
                key={client._id}
                style={start}
                className="col-span-2 col-start-(--logo-start) flex h-12 items-center justify-center opacity-80 transition-opacity hover:opacity-100 sm:col-start-(--logo-start-sm) lg:col-start-(--logo-start-lg)"
              >
                {source ? (
                  <SanityImage
                    source={source}
                    sizes="9rem"
                    alt={client.name ?? ''}
                    className="h-auto max-h-12 w-full max-w-36"
                  />
                ) : (
                  <span className="text-center font-semibold text-muted">{client.name}</span>
                )}
              </li>
            )
          })}
        </ul>
      </Container>
    </section>
  )
}
