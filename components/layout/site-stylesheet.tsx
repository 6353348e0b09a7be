import { siteStylesheetHref } from '@/lib/site-stylesheet-href'

/*
 * The site's whole stylesheet, linked where a page's first screen ends, and by the layout after the
 * footer (for the pages that hold no more than a screen and a footer, the 404 and the legal pages, and
 * so that the file stays in the document across client-side navigations). A stylesheet in the <body>
 * holds the browser's reading of the page until it has arrived, not the painting of what came before
 * it: the first frame lays out and paints the header and the hero, set by the rules inlined in the
 * <head> (app/first-screen.css), without first parsing, styling and setting the text of everything
 * below. On a phone's slow link that frame comes 50-60 ms sooner (docs/performance.md); the file is
 * immutable, so a later page finds it cached and is not held at all. Rendered in place (no
 * `precedence`): React would otherwise hoist it into the <head>, where it would hold the first frame.
 * Asked for at low priority, as what the first frame does not need: Chrome fetches it as soon (the same
 * first paint and DOMContentLoaded, measured), and Lighthouse's simulation, which counts a
 * high-priority stylesheet as holding the first paint, no longer adds its round trip (`/en` simulated
 * first paint 1.4–1.5 → 0.9–1.1 s).
 */
export function SiteStylesheet() {
  return <link rel="stylesheet" href={siteStylesheetHref} fetchPriority="low" />
}
