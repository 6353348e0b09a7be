import { draftMode } from 'next/headers'
import { notFound } from 'next/navigation'
import { Suspense } from 'react'
import { NotFoundMessage } from './not-found-message'

/*
 * What a page renders, instead of calling notFound() itself, when its URL names nothing: the localised
 * 404 in the site's layout, in the server's HTML, with status 404.
 *
 * Why not notFound() in the page: React's server render has no error boundaries, so a notFound() in
 * the page's shell fails the whole shell and Next answers its error document (<html id="__next_error__">,
 * no lang, an empty body: vercel/next.js#62228, still so in 16.4); the 404 then appears only once
 * JavaScript runs. Only a URL no route matches is rendered whole, through Next's /_not-found, which
 * knows no locale (this app has one root layout per [locale] and no middleware) and which /nope never
 * reaches: [service] keeps dynamic params so that a service published after the build gets its page.
 *
 * So the shell renders, and the notFound() is thrown inside a Suspense boundary: the server renders the
 * boundary's fallback (the message) in place, and Next sets the status from that error (404, "React can
 * complete a prerender after an HTTP access fallback ... error is thrown inside a Suspense boundary" in
 * its app-render), and its noindex. It does so in a prerender only, as every public page is rendered
 * (a route with generateStaticParams, an unknown path on its first visit). A render per request (an
 * editor's draft mode, where JavaScript runs anyway) calls notFound() itself: the status stays 404 and
 * the message appears once the page hydrates. In the browser the boundary renders again,
 * throws the same notFound(), and the [locale] segment's not-found.tsx shows the same message: the page
 * hydrates as a 404, with no error reported.
 */
export async function NotFoundResponse() {
  if ((await draftMode()).isEnabled) notFound()
  return (
    <Suspense fallback={<NotFoundMessage />}>
      <NotFoundStatus />
    </Suspense>
  )
}

function NotFoundStatus(): never {
  notFound()
}
