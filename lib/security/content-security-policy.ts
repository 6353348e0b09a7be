import { createHash } from 'node:crypto'

/*
 * The Content-Security-Policy of every response, built in one place.
 *
 * Pages stay static: the policy cannot carry a per-request nonce, so it names the inline scripts Next
 * writes into each page by their SHA-256 hashes. Those scripts (the RSC payload) differ per page and
 * change whenever a page is regenerated after a publish, so the hashes are not known at build time.
 * next.config.ts therefore sends the *portable* policy, safe wherever Next serves the build on its own
 * (`next start`, the standalone server, Vercel): inline scripts and style attributes allowed. Our
 * production server (server/main.ts) tightens it from the very HTML it sends (`withInlineHashes`):
 * hashes in, 'unsafe-inline' out. The dev server keeps the relaxed policy Next's hot reloading needs
 * ('unsafe-eval', 'unsafe-inline').
 *
 * The production server loads this module through Node's type stripping, and its container image holds
 * only server/ and lib/security/: Node built-ins only, no path aliases, nothing from the rest of lib/.
 * Where the sources come from (the configured services) is policy-sources.ts's business, which
 * next.config.ts and the pages import and the server never does.
 */

export type PolicyKind = 'site' | 'studio'

export interface PolicySources {
  /** Where browsers send contact messages and the inbox talks to (the Supabase API). */
  supabaseUrl: string
  /** Sanity API origins a browser talks to (the Studio, draft-mode live updates). */
  sanityApiOrigins: string[]
  /** Where Sanity image and file bytes come from (the CDN, or the local Content Lake). */
  sanityAssetOrigins: string[]
  dev: boolean
}

type Directives = Record<string, string[]>

/** An origin as a CSP source. A plain-http origin (the local twins) is written without its scheme:
 *  CSP then lets an http page reach it as is and an https page only over TLS, so a site behind TLS
 *  never allows a cleartext connection (and the Observatory does not count an `http:` source). */
export function cspSource(url: string): string {
  const { protocol, host } = new URL(url)
  return protocol === 'http:' ? host : `${protocol}//${host}`
}

/** The same host over WebSocket (the Studio's and Supabase's realtime channels). */
const webSocketSource = (source: string) => source.replace(/^https:/, 'wss:')

function directivesFor(kind: PolicyKind, sources: PolicySources): Directives {
  const supabase = cspSource(sources.supabaseUrl)
  const assets = sources.sanityAssetOrigins.map(cspSource)
  const base: Directives = {
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', ...assets],
    'font-src': ["'self'"],
    'connect-src': ["'self'", supabase],
    'manifest-src': ["'self'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    // The Studio's Presentation tool frames the site on the same origin; nobody else may.
    'frame-ancestors': ["'self'"],
    'object-src': ["'none'"],
  }
  if (kind === 'studio') {
    const api = sources.sanityApiOrigins
    Object.assign(base, {
      // Sanity's UI injects its styles at run time (styled-components): no hash can name them.
      'style-src': ["'self'", "'unsafe-inline'"],
      // Editors' avatars come from their sign-in provider (Google, GitHub…), any https host.
      'img-src': ["'self'", 'data:', 'blob:', 'https:', ...assets],
      // The Inter font of Sanity's UI.
      'font-src': ["'self'", 'data:', 'https://design-system-static.sanity.io'],
      'connect-src': [
        "'self'",
        ...api,
        ...api.map(webSocketSource),
        ...assets,
        // The Studio's version check and the API's global host (users, projects).
        'https://api.sanity.io',
        'https://sanity-cdn.com',
        'https://*.sanity-cdn.com',
      ],
      // The Presentation tool shows the site in a frame; uploads are previewed from blob: URLs.
      'frame-src': ["'self'"],
      'media-src': ["'self'", 'blob:', ...assets],
      'worker-src': ["'self'", 'blob:'],
    })
  }
  if (sources.dev) {
    // `next dev` evaluates modules, streams inline scripts and styles, and reloads over a WebSocket.
    base['script-src'].push("'unsafe-inline'", "'unsafe-eval'")
    base['style-src'] = ["'self'", "'unsafe-inline'"]
  }
  return base
}

/** In draft mode (editors only) the page also loads the overlays, which inject their styles, and
 *  listens to the Content Lake for changes. Never sent to a visitor without the draft-mode cookie. */
function addDraftMode(directives: Directives, sources: PolicySources): Directives {
  return {
    ...directives,
    'style-src': ["'self'", "'unsafe-inline'"],
    // Live updates: the hosted API, or the local Content Lake's plain-HTTP side the page's client uses.
    'connect-src': [
      ...directives['connect-src'],
      ...sources.sanityApiOrigins,
      ...sources.sanityAssetOrigins.map(cspSource),
    ],
  }
}

const serialize = (directives: Directives) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...new Set(values)].join(' '))
    .join('; ')

/** Without a server to hash them, the page's own inline scripts and style attributes must run: allowed
 *  by 'unsafe-inline', which browsers ignore in script-src as soon as a hash is there too, and which
 *  `withInlineHashes` removes when it adds them. Style attributes get their own directive, so `style-src`
 *  keeps refusing inline <style> elements. */
function makePortable(directives: Directives): Directives {
  const inlineStyles = directives['style-src'].includes("'unsafe-inline'")
  return {
    ...directives,
    'script-src': [...directives['script-src'], "'unsafe-inline'"],
    ...(inlineStyles ? {} : { 'style-src-attr': ["'unsafe-inline'"] }),
  }
}

export interface PolicyOptions {
  /** The editors' policy (requests with the draft-mode cookie). */
  draftMode?: boolean
  /** The policy next.config.ts sends: right for the build served by Next alone (see above). */
  portable?: boolean
}

export function contentSecurityPolicy(kind: PolicyKind, sources: PolicySources, options: PolicyOptions = {}): string {
  let directives = directivesFor(kind, sources)
  if (options.draftMode) directives = addDraftMode(directives, sources)
  return serialize(options.portable ? makePortable(directives) : directives)
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

// A script element as HTML serializers (React's included) write it: attributes may hold quoted '>'.
const SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi
// A style element (the stylesheet Next inlines into the page's head, next.config.ts `inlineCss`).
const STYLE_ELEMENT = /<style\b(?:[^>"']|"[^"]*"|'[^']*')*>([\s\S]*?)<\/style\s*>/gi
// Style attributes as React writes them: always double-quoted, '"' escaped as &quot;.
const STYLE_ATTRIBUTE = /<[a-z][^\s/>]*\s(?:[^>"']|"[^"]*"|'[^']*')*?\bstyle="([^"]*)"/gi

/** Script elements a browser would execute inline: no src, and a JavaScript type (or none). */
function inlineScripts(html: string): string[] {
  const scripts: string[] = []
  for (const [, attributes, body] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase()
    if (type && !['text/javascript', 'application/javascript', 'module'].includes(type)) continue
    scripts.push(body)
  }
  return scripts
}

/**
 * The policy (or its `style-src` directive alone) naming these `<style>` hashes in `style-src` too,
 * unless it allows inline styles already or has no `style-src`. Hashes already there are not repeated.
 */
export function withStyleHashes(policy: string, hashes: string[]): string {
  return policy
    .split(';')
    .map((directive) => {
      const tokens = directive.trim().split(/\s+/)
      if (tokens[0] !== 'style-src' || tokens.includes(UNSAFE_INLINE)) return directive
      const missing = hashes.filter((hash) => !tokens.includes(hash))
      return missing.length ? `${directive.trimEnd()} ${missing.join(' ')}` : directive
    })
    .join(';')
}

/** The hashes of a page's `<style>` elements, as `style-src` names them. */
export function inlineStyleHashes(html: string): string[] {
  return [...new Set([...html.matchAll(STYLE_ELEMENT)].map(([, body]) => sha256(body)))]
}

const decodeAttribute = (value: string) =>
  value.replace(
    /&(quot|amp|lt|gt|#39|#x27);/g,
    (entity) =>
      ({ '&quot;': '"', '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#39;': "'", '&#x27;': "'" })[entity] ?? entity,
  )

const UNSAFE_INLINE = "'unsafe-inline'"
const withoutUnsafeInline = (directive: string) =>
  directive
    .split(/\s+/)
    .filter((token) => token !== UNSAFE_INLINE)
    .join(' ')

/**
 * The policy completed for one HTML document: the hashes of its inline scripts join `script-src`,
 * and those of its `style` attributes (next/image's `color:transparent`, a few layout variables) a
 * `style-src-attr` directive, unless the policy already allows inline styles in `style-src`. The
 * portable policy's 'unsafe-inline' (script-src, style-src-attr) goes: the hashes name everything the
 * page runs (the dev policy, with 'unsafe-eval', is left as it is). A policy without `script-src` (not
 * a page's) is returned as is.
 */
export function withInlineHashes(policy: string, html: string): string {
  const directives = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean)
  const index = (name: string) => directives.findIndex((directive) => directive.split(/\s+/)[0] === name)
  const scriptIndex = index('script-src')
  if (scriptIndex === -1) return policy
  if (directives[scriptIndex].includes("'unsafe-eval'")) return policy
  const scriptHashes = [...new Set(inlineScripts(html).map(sha256))]
  directives[scriptIndex] = withoutUnsafeInline(directives[scriptIndex])
  if (scriptHashes.length) directives[scriptIndex] += ` ${scriptHashes.join(' ')}`

  const portableAttributes = index('style-src-attr')
  if (portableAttributes !== -1 && directives[portableAttributes].split(/\s+/).includes(UNSAFE_INLINE))
    directives.splice(portableAttributes, 1)
  const styleIndex = index('style-src')
  const inlineStylesAllowed = styleIndex !== -1 && directives[styleIndex].includes(UNSAFE_INLINE)
  // The page's own <style> elements (its stylesheet, inlined): by hash, unless the policy named them already.
  if (styleIndex !== -1) directives[styleIndex] = withStyleHashes(directives[styleIndex], inlineStyleHashes(html))
  const styleHashes = [
    ...new Set([...html.matchAll(STYLE_ATTRIBUTE)].map(([, value]) => sha256(decodeAttribute(value)))),
  ]
  if (!inlineStylesAllowed && styleHashes.length && index('style-src-attr') === -1) {
    directives.splice(
      styleIndex === -1 ? directives.length : styleIndex + 1,
      0,
      `style-src-attr 'unsafe-hashes' ${styleHashes.join(' ')}`,
    )
  }
  return directives.join('; ')
}
