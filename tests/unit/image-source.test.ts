import { describe, expect, it } from 'vitest'
import { imageSource } from '@/lib/sanity/image'

// The site's image URLs: the editor's crop (and hotspot) from the Studio reach the image pipeline.
describe('imageSource', () => {
  const photo = {
    url: 'https://cdn.sanity.io/images/test1234/production/abc-1000x500.png',
    width: 1000,
    height: 500,
    ref: 'image-abc-1000x500-png',
  }

  it('asks for the cropped area and gives its size', () => {
    const source = imageSource(
      {
        ...photo,
        // As the Studio writes them, with their _type.
        crop: { _type: 'sanity.imageCrop', top: 0.1, bottom: 0.1, left: 0.2, right: 0 },
        hotspot: { _type: 'sanity.imageHotspot', x: 0.6, y: 0.5, width: 0.3, height: 0.3 },
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
      url: 'https://cdn.sanity.io/images/test1234/production/def-240x80.svg',
      width: 240,
      height: 80,
      ref: 'image-def-240x80-svg',
    }
    // One file at every size: no srcset, and no placeholder behind a transparent drawing.
    expect(imageSource({ ...svg, lqip: 'data:image/jpeg;base64,AA==' }, 160)).toEqual({
      src: svg.url,
      width: 240,
      height: 80,
    })
  })

  it('offers 1×, 1.5× and 2× the display width, each cropped, resized and in the best format', () => {
    const source = imageSource({ ...photo, crop: { top: 0, bottom: 0, left: 0, right: 0.04 } }, 200)!
    const candidates = source.srcSet!.split(', ').map((candidate) => candidate.split(' '))
    expect(candidates.map(([, descriptor]) => descriptor)).toEqual(['200w', '300w', '400w'])
    for (const [href, descriptor] of candidates) {
      const url = new URL(href)
      expect(url.origin + url.pathname).toBe('https://cdn.sanity.io/images/test1234/production/abc-1000x500.png')
      expect(url.searchParams.get('rect')).toBe('0,0,960,500')
      expect(`${url.searchParams.get('w')}w`).toBe(descriptor)
      expect(url.searchParams.get('fit')).toBe('max')
      expect(url.searchParams.get('auto')).toBe('format')
    }
    // `src` (browsers without srcset) is the widest candidate.
    expect(candidates.at(-1)![0]).toBe(source.src)
  })

  it('never asks for more than the cropped area: the widths stop there, once', () => {
    const source = imageSource({ ...photo, crop: { top: 0, bottom: 0, left: 0.5, right: 0 } }, 400)!
    expect(source.srcSet!.split(', ').map((candidate) => candidate.split(' ')[1])).toEqual(['400w', '500w'])
    expect(source).toMatchObject({ width: 500, height: 500 })
  })

  it('gives the lqip as a placeholder for JPEGs only (a transparent PNG would show it for good)', () => {
    const lqip =
      'data:image/jpeg;base64,/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2w=='
    const jpeg = { ...photo, url: photo.url.replace('.png', '.jpg'), ref: 'image-abc-1000x500-jpg', lqip }
    expect(imageSource(jpeg, 300)!.placeholder).toBe(lqip)
    expect(imageSource({ ...photo, lqip }, 300)!.placeholder).toBeUndefined()
    expect(imageSource({ ...jpeg, lqip: null }, 300)!.placeholder).toBeUndefined()
  })

  it('has nothing to show without a URL or a size', () => {
    expect(imageSource(null, 100)).toBeNull()
    expect(imageSource({ ...photo, width: null }, 100)).toBeNull()
  })
})
