import { defineQuery } from 'next-sanity'

/*
 * Every GROQ query of the site. Each one takes $locale and projects localised fields down to
 * plain strings (or Portable Text), so components never see the { fr, en } objects. They run against
 * the Content Lake NEXT_PUBLIC_SANITY_PROJECT_ID names (hosted, or the local one `npm start` sets). The
 * document types a query's filters name are its cache tags (query-tags.ts).
 * `select($locale == "en" => x.en, x.fr)` rather than `x[$locale]`: TypeGen types the former as
 * the field's type, the latter as an array.
 */

const imageFields = /* groq */ `
  "url": asset->url,
  "width": asset->metadata.dimensions.width,
  "height": asset->metadata.dimensions.height,
  "lqip": asset->metadata.lqip,
  "ref": asset._ref,
  crop,
  hotspot
`

const cardFields = /* groq */ `
  _key,
  icon,
  "title": select($locale == "en" => title.en, title.fr),
  "description": select($locale == "en" => description.en, description.fr),
  "highlight": select($locale == "en" => highlight.en, highlight.fr)
`

const ctaFields = /* groq */ `
  "title": select($locale == "en" => title.en, title.fr),
  "text": select($locale == "en" => text.en, text.fr),
  "buttonLabel": select($locale == "en" => buttonLabel.en, buttonLabel.fr)
`

const seoFields = /* groq */ `
  "title": select($locale == "en" => title.en, title.fr),
  "description": select($locale == "en" => description.en, description.fr)
`

export const siteSettingsQuery = defineQuery(`*[_type == "siteSettings" && _id == "siteSettings"][0]{
  brandName,
  "tagline": select($locale == "en" => tagline.en, tagline.fr),
  email,
  phone,
  "city": select($locale == "en" => city.en, city.fr),
  bookingUrl,
  "bookingLabel": select($locale == "en" => bookingLabel.en, bookingLabel.fr),
  socialLinks{ linkedin, instagram },
  copyrightYear,
  "claims": claims[]{ "text": select($locale == "en" => en, fr) }.text,
  seo{ ${seoFields} }
}`)

export const serviceNavQuery = defineQuery(`*[_type == "service" && defined(slug.current)] | order(order asc){
  _id,
  icon,
  "slug": slug.current,
  "title": select($locale == "en" => title.en, title.fr)
}`)

export const homePageQuery = defineQuery(`{
  "page": *[_type == "homePage" && _id == "homePage"][0]{
    seo{ ${seoFields} },
    hero{
      "eyebrow": select($locale == "en" => eyebrow.en, eyebrow.fr),
      "title": select($locale == "en" => title.en, title.fr),
      "subtitle": select($locale == "en" => subtitle.en, subtitle.fr),
      "ctaLabel": select($locale == "en" => ctaLabel.en, ctaLabel.fr),
      "trustLines": trustLines[]{ "text": select($locale == "en" => en, fr) }.text,
      "projectsClaim": select($locale == "en" => projectsClaim.en, projectsClaim.fr)
    },
    servicesSection{ "title": select($locale == "en" => title.en, title.fr), "intro": select($locale == "en" => intro.en, intro.fr), "linkLabel": select($locale == "en" => linkLabel.en, linkLabel.fr) },
    benefitsSection{ "title": select($locale == "en" => title.en, title.fr), "intro": select($locale == "en" => intro.en, intro.fr) },
    clientsSection{ "title": select($locale == "en" => title.en, title.fr) },
    testimonialsSection{ "title": select($locale == "en" => title.en, title.fr), "intro": select($locale == "en" => intro.en, intro.fr) },
    contactCta{ ${ctaFields} }
  },
  "services": *[_type == "service"] | order(order asc){
    _id,
    icon,
    "slug": slug.current,
    "title": select($locale == "en" => title.en, title.fr),
    "description": select($locale == "en" => description.en, description.fr)
  },
  "benefits": *[_type == "benefit"] | order(order asc){
    _id,
    icon,
    "title": select($locale == "en" => title.en, title.fr),
    "description": select($locale == "en" => description.en, description.fr),
    "highlight": select($locale == "en" => highlight.en, highlight.fr)
  },
  "clients": *[_type == "clientLogo"] | order(order asc){
    _id,
    name,
    "logo": logo{ ${imageFields} }
  },
  "testimonials": *[_type == "testimonial"] | order(order asc){
    _id,
    name,
    "role": select($locale == "en" => role.en, role.fr),
    "content": select($locale == "en" => content.en, content.fr),
    rating
  }
}`)

export const servicePageSlugsQuery = defineQuery(
  `*[_type == "service" && defined(slug.current) && defined(page)].slug.current`,
)

export const servicePageQuery = defineQuery(`*[_type == "service" && slug.current == $slug][0]{
  _id,
  "slug": slug.current,
  icon,
  "title": select($locale == "en" => title.en, title.fr),
  "page": page{
    seo{ ${seoFields} },
    hero{
      "eyebrow": select($locale == "en" => eyebrow.en, eyebrow.fr),
      "title": select($locale == "en" => title.en, title.fr),
      "subtitle": select($locale == "en" => subtitle.en, subtitle.fr),
      "ctaLabel": select($locale == "en" => ctaLabel.en, ctaLabel.fr)
    },
    "highlight": select($locale == "en" => highlight.en, highlight.fr),
    "featuresTitle": select($locale == "en" => featuresTitle.en, featuresTitle.fr),
    "features": features[]{ ${cardFields} },
    "packagesTitle": select($locale == "en" => packagesTitle.en, packagesTitle.fr),
    "packagesIntro": select($locale == "en" => packagesIntro.en, packagesIntro.fr),
    "chooseLabel": select($locale == "en" => chooseLabel.en, chooseLabel.fr),
    "popularLabel": select($locale == "en" => popularLabel.en, popularLabel.fr),
    "packages": packages[]{
      _key,
      "name": select($locale == "en" => name.en, name.fr),
      "volume": select($locale == "en" => volume.en, volume.fr),
      "features": features[]{ "text": select($locale == "en" => en, fr) }.text,
      featured
    },
    closingCta{ ${ctaFields} }
  }
}`)

export const aboutPageQuery = defineQuery(`*[_type == "aboutPage" && _id == "aboutPage"][0]{
  seo{ ${seoFields} },
  hero{ "eyebrow": select($locale == "en" => eyebrow.en, eyebrow.fr), "title": select($locale == "en" => title.en, title.fr), "intro": select($locale == "en" => intro.en, intro.fr) },
  "photo": photo{ ${imageFields}, "alt": select($locale == "en" => alt.en, alt.fr) },
  "story": select($locale == "en" => story.en, story.fr),
  "journeyTitle": select($locale == "en" => journeyTitle.en, journeyTitle.fr),
  "journey": journey[]{ ${cardFields} },
  "passionsTitle": select($locale == "en" => passionsTitle.en, passionsTitle.fr),
  "passions": passions[]{ ${cardFields} },
  "valuesTitle": select($locale == "en" => valuesTitle.en, valuesTitle.fr),
  "values": values[]{ ${cardFields} },
  cta{ ${ctaFields} }
}`)

export const contactPageQuery = defineQuery(`*[_type == "contactPage" && _id == "contactPage"][0]{
  seo{ ${seoFields} },
  hero{ "title": select($locale == "en" => title.en, title.fr), "intro": select($locale == "en" => intro.en, intro.fr) },
  "detailsTitle": select($locale == "en" => detailsTitle.en, detailsTitle.fr),
  "formTitle": select($locale == "en" => formTitle.en, formTitle.fr),
  "formIntro": select($locale == "en" => formIntro.en, formIntro.fr),
  "whyTitle": select($locale == "en" => whyTitle.en, whyTitle.fr),
  "reasons": reasons[]{ ${cardFields} }
}`)

export const legalPageQuery = defineQuery(`*[_type == "legalPage" && slug.current == $slug][0]{
  _id,
  "slug": slug.current,
  seo{ ${seoFields} },
  "title": select($locale == "en" => title.en, title.fr),
  updatedAt,
  "sections": sections[]{
    _key,
    "heading": select($locale == "en" => heading.en, heading.fr),
    "body": select($locale == "en" => body.en, body.fr)
  }
}`)
