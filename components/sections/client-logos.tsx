import Image from 'next/image'
import { Container } from '@/components/ui/container'
import { imageSource } from '@/lib/sanity/image'
import type { HomeContent } from '@/lib/sanity/content-types'

/** The strip of seven client logos. */
export function ClientLogos({ title, clients }: { title: string | null | undefined; clients: HomeContent['clients'] }) {
  return (
    <section aria-labelledby="clients-title" className="border-y border-line bg-white py-14">
      <Container>
        <h2 id="clients-title" className="text-center font-sans text-sm font-semibold tracking-[0.14em] text-muted uppercase">
          {title}
        </h2>
        <ul className="mt-8 flex flex-wrap items-center justify-center gap-x-10 gap-y-8">
          {clients.map((client) => {
            const source = imageSource(client.logo, 160)
            return (
              <li key={client._id} className="flex h-12 items-center opacity-80 transition-opacity hover:opacity-100">
                {source ? (
                  <Image src={source.src} width={source.width} height={source.height} alt={client.name ?? ''} unoptimized className="h-10 w-auto sm:h-12" />
                ) : (
                  <span className="font-semibold text-muted">{client.name}</span>
                )}
              </li>
            )
          })}
        </ul>
      </Container>
    </section>
  )
}
