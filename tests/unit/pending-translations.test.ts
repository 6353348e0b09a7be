import type { Schema } from 'sanity'
import { describe, expect, it } from 'vitest'
import { pendingTranslations } from '@/studio/translation/pending-translations'

// The overview's rows, from documents as the Studio reads them: only what needs an editor, grouped by
// document, the oldest French change first, named by the fields' titles.
const schema = {
  get: (name: string) =>
    ({
      testimonial: {
        title: 'Témoignage',
        fields: [
          { name: 'name', type: { title: 'Nom' } },
          { name: 'content', type: { title: 'Témoignage' } },
        ],
      },
      service: {
        title: 'Service',
        fields: [
          { name: 'title', type: { title: 'Titre' } },
          {
            name: 'packages',
            type: {
              title: 'Offres',
              of: [{ name: 'servicePackage', fields: [{ name: 'price', type: { title: 'Prix' } }] }],
            },
          },
        ],
      },
    })[name],
} as unknown as Schema

const current = { _type: 'localeText', fr: 'A', en: 'A', enSource: { fr: 'A' } }

describe('pendingTranslations', () => {
  it('lists stale and missing fields, oldest French change first; nothing when every English is current', () => {
    const documents = [
      {
        _id: 'drafts.testimonial-1',
        _type: 'testimonial',
        _updatedAt: '2026-11-20T00:00:00Z',
        name: 'Sophie',
        content: current,
      },
      {
        _id: 'testimonial-2',
        _type: 'testimonial',
        _updatedAt: '2026-11-02T00:00:00Z',
        name: 'Marc',
        content: { ...current, fr: 'B', enSource: { fr: 'A' } },
      },
      {
        _id: 'service-web',
        _type: 'service',
        _updatedAt: '2026-11-10T00:00:00Z',
        title: { _type: 'localeString', fr: 'Web', en: '' },
        packages: [
          {
            _key: 'p1',
            _type: 'servicePackage',
            price: { _type: 'localeString', fr: '2 €', en: '€1', enSource: { fr: '1 €' } },
          },
        ],
      },
    ]
    expect(pendingTranslations(documents, schema)).toEqual([
      {
        id: 'testimonial-2',
        type: 'testimonial',
        typeTitle: 'Témoignage',
        title: 'Marc',
        since: '2026-11-02T00:00:00Z',
        fields: [
          {
            pathString: 'content',
            title: 'Témoignage',
            state: 'stale',
            label: 'EN à revoir',
            since: '2026-11-02T00:00:00Z',
          },
        ],
      },
      {
        id: 'service-web',
        type: 'service',
        typeTitle: 'Service',
        title: 'Web',
        since: '2026-11-10T00:00:00Z',
        fields: [
          {
            pathString: 'title',
            title: 'Titre',
            state: 'missing',
            label: 'EN manquant',
            since: '2026-11-10T00:00:00Z',
          },
          {
            pathString: 'packages[_key=="p1"].price',
            title: 'Offres › n° 1 › Prix',
            state: 'stale',
            label: 'EN à revoir',
            since: '2026-11-10T00:00:00Z',
          },
        ],
      },
    ])
    expect(pendingTranslations([documents[0]], schema)).toEqual([])
  })

  it('never says « à jour » while the site is stale: a draft that fixes a published stale field is « à publier »', () => {
    const published = {
      _id: 'testimonial-3',
      _type: 'testimonial',
      _updatedAt: '2026-11-05T00:00:00Z',
      name: 'Lina',
      content: { ...current, fr: 'B', enSource: { fr: 'A' } },
    }
    const fixed = { ...published, _id: 'drafts.testimonial-3', content: { ...current, fr: 'B', enSource: { fr: 'B' } } }
    const [pending] = pendingTranslations([published, fixed], schema)
    expect(pending.fields).toEqual([
      {
        pathString: 'content',
        title: 'Témoignage',
        state: 'unpublished',
        label: 'EN à publier',
        since: '2026-11-05T00:00:00Z',
      },
    ])
    // Once published (the draft gone, the published document fixed), nothing waits.
    expect(pendingTranslations([{ ...fixed, _id: 'testimonial-3' }], schema)).toEqual([])
    // A draft that is itself stale shows as « à revoir », once.
    expect(
      pendingTranslations([published, { ...published, _id: 'drafts.testimonial-3' }], schema)[0].fields,
    ).toMatchObject([{ state: 'stale' }])
  })
})
