import 'server-only'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Metadata } from 'next'
import { ImageResponse } from 'next/og'

/** The size LinkedIn, Facebook and X show large (1.91:1). */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const

/*
 * The site's display font, read from a local file: no network at build time. next/og reads TTF, OTF
 * and WOFF but not WOFF2, the only format of the @fontsource-variable packages the pages use, hence
 * the static @fontsource package, which also ships WOFF. Read once per process.
 */
const FONT_FILE = path.join(
  process.cwd(),
  'node_modules',
  '@fontsource',
  'fraunces',
  'files',
  'fraunces-latin-600-normal.woff',
)
let font: Promise<Buffer> | undefined

/** The brand is drawn on its own: a title that starts with it ("Plume & Cap — …") drops it there. */
function withoutBrand(title: string, brand: string): string {
  const rest = brand && title.startsWith(brand) ? title.slice(brand.length).replace(/^\s*[—–|:-]\s*/, '') : ''
  return rest || title
}

/** A page's share picture: the brand above the page's title, in the site's colours and fonts. */
export async function renderShareImage({ title, brand }: { title: string; brand: string }): Promise<ImageResponse> {
  font ??= readFile(FONT_FILE)
  const fraunces = await font
  const text = withoutBrand(title, brand)
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: '72px 88px',
        backgroundColor: '#fbf8f3',
        backgroundImage: 'radial-gradient(circle at 100% 0%, #fbe7d6 0%, rgba(251, 231, 214, 0) 55%)',
        color: '#1c1917',
        fontFamily: 'Fraunces',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 20 }}>
        <div style={{ width: 14, height: 56, borderRadius: 7, backgroundColor: '#9a3412' }} />
        <div style={{ fontSize: 44, fontWeight: 600 }}>{brand}</div>
      </div>
      <div
        style={{
          display: 'flex',
          fontWeight: 600,
          fontSize: text.length > 48 ? 68 : 84,
          lineHeight: 1.08,
          maxWidth: 1000,
        }}
      >
        {text}
      </div>
      <div style={{ display: 'flex', width: 160, height: 8, borderRadius: 4, backgroundColor: '#9a3412' }} />
    </div>,
    {
      ...SHARE_IMAGE_SIZE,
      fonts: [{ name: 'Fraunces', data: fraunces, weight: 600, style: 'normal' }],
    },
  )
}

type MetadataOf<Params> = (props: { params: Promise<Params> }) => Promise<Metadata>

/**
 * The GET handler of a page's `share-image.png` route: the picture drawn from the title and site
 * name the page's own generateMetadata gives, so the picture and the og:title never disagree.
 */
export function shareImageRoute<Params>(metadataOf: MetadataOf<Params>) {
  return async function GET(_request: Request, { params }: { params: Promise<Params> }): Promise<Response> {
    const { openGraph } = await metadataOf({ params })
    const title = openGraph?.title
    return renderShareImage({
      title: typeof title === 'string' ? title : title && 'absolute' in title ? title.absolute : (title?.default ?? ''),
      brand: openGraph?.siteName ?? '',
    })
  }
}
