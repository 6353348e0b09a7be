/** A service page as the navigation lists it. */
export type NavService = { slug: string; title: string }
