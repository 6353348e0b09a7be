'use client'

import NextLink from 'next/link'
import type { ComponentProps } from 'react'
import { usePageIdle } from '@/lib/page-idle'
import { localizedPath } from './localized-path'
import { useLocaleRoute } from './use-locale-route'

type LinkProps = Omit<ComponentProps<typeof NextLink>, 'href'> & {
  /** A path without locale prefix ('/about', '/#services'): the link goes to it in the current language. */
  href: string
}

/**
 * next/link to a page in the current language. It prefetches (as next/link does by default) once the
 * page has loaded and gone idle, not while the document and fonts still arrive (lib/page-idle.ts).
 */
export function Link({ href, prefetch, ...props }: LinkProps) {
  const { locale } = useLocaleRoute()
  const idle = usePageIdle()
  return <NextLink href={localizedPath(href, locale)} prefetch={idle ? prefetch : false} {...props} />
}
