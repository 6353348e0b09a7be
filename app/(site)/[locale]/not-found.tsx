import { NotFoundMessage } from '@/components/sections/not-found-message'

/**
 * The 404 of both languages where notFound() reaches a boundary in the browser: after a client-side
 * navigation, and when a page's NotFoundResponse hydrates (components/sections/not-found-response.tsx).
 */
export default function NotFound() {
  return <NotFoundMessage />
}
