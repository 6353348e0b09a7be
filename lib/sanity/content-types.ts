import type {
  AboutPageQueryResult,
  ContactPageQueryResult,
  HomePageQueryResult,
  LegalPageQueryResult,
  ServicePageQueryResult,
  SiteSettingsQueryResult,
} from './sanity.types'

/* Friendly names for the TypeGen results the components take. */
export type SiteSettings = NonNullable<SiteSettingsQueryResult>
export type HomeContent = HomePageQueryResult
export type ServicePage = NonNullable<ServicePageQueryResult>
export type AboutPage = NonNullable<AboutPageQueryResult>
export type ContactPage = NonNullable<ContactPageQueryResult>
export type LegalPage = NonNullable<LegalPageQueryResult>
