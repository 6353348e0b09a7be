'use client'

import NextLink from 'next/link'
import type { ComponentProps } from 'react'
import { localizedPath } from './localized-path'
import { useLocaleRoute } from './use-locale-route'

type LinkProps = Omit<ComponentProps<typeof NextLink>, 'href'> & {
  /** A path without locale prefix ('/about', '/#services'): the link goes to it in the current language. */
  href: string
}

/** next/link to a page in the current language. */
export function Link({ href, ...props }: LinkProps) {
  const { locale } = useLocaleRoute()
  return <NextLink href={localizedPath(href, locale)} {...props} />
}
