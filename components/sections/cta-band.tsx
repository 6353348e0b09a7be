import type { ReactNode } from 'react'
import { Container } from '@/components/ui/container'
import { Glow } from '@/components/ui/glow'

type CtaBandProps = {
  id?: string
  title: string | null | undefined
  text: string | null | undefined
  children: ReactNode
}

/** The dark closing band with a title, a sentence and its actions (home, service pages, about). */
export function CtaBand({ id, title, text, children }: CtaBandProps) {
  return (
    <section aria-labelledby={id ?? 'cta-title'} className="render-when-visible py-20 sm:py-24">
      <Container>
        <div className="relative overflow-hidden rounded-[2rem] bg-night px-6 py-14 text-center text-paper sm:px-12">
          <Glow tone="clay" className="-top-24 left-1/2 size-96 -translate-x-1/2" />
          <div className="relative">
            <h2 id={id ?? 'cta-title'} className="mx-auto max-w-2xl text-3xl font-semibold text-white sm:text-4xl">
              {title}
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-lg leading-relaxed text-paper/85">{text}</p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">{children}</div>
          </div>
        </div>
      </Container>
    </section>
  )
}
