import { describe, expect, it } from 'vitest'
import { imageSource } from '@/lib/sanity/image'

// The site's image URLs: the editor's crop (and hotspot) from the Studio reach the image pipeline.
describe('imageSource', () => {
  const photo = {
    url: 'http://127.0.0.1:54380/images/local/production/abc-1000x500.png',
    width: 1000,
    height: 500,
    ref: 'image-abc-1000x500-png',
  }

  it('asks for the cropped area and gives its size', () => {
    const source = imageSource(
      {
        ...photo,
        crop: { top: 0.1, bottom: 0.1, left: 0.2, right: 0 },
        hotspot: { x: 0.6, y: 0.5, width: 0.3, height: 0.3 },
      },
      480,
    )
    expect(source).not.toBeNull()
    const url = new URL(source!.src)
    expect(url.searchParams.get('rect')).toBe('200,50,800,400')
    expect(url.searchParams.get('w')).toBe('800')
    expect(source).toMatchObject({ width: 800, height: 400 })
  })

  it('serves the whole image without crop, and SVGs as they are', () => {
    const whole = imageSource({ ...photo, crop: null, hotspot: null }, 300)!
    expect(new URL(whole.src).searchParams.get('rect')).toBeNull()
    expect(new URL(whole.src).searchParams.get('w')).toBe('600')
    expect(whole).toMatchObject({ width: 1000, height: 500 })
    const svg = {
      url: 'http://127.0.0.1:54380/images/local/production/def-240x80.svg',
      width: 240,
      height: 80,
      ref: 'image-def-240x80-svg',
    }
    expect(imageSource(svg, 160)).toEqual({ src: svg.url, width: 240, height: 80 })
  })

  it('has nothing to show without a URL or a size', () => {
    expect(imageSource(null, 100)).toBeNull()
    expect(imageSource({ ...photo, width: null }, 100)).toBeNull()
  })
})
