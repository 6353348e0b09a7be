import type { ContactMessages } from './contact-schema'

/**
 * Every text the contact form and dialog show, resolved on the server from messages/<locale>.json
 * and handed to these client components as a prop: the browser then needs no message formatter
 * (next-intl's client runtime would cost ~12 KiB gzip on every page).
 */
export type ContactCopy = {
  locale: string
  form: {
    name: string
    namePlaceholder: string
    email: string
    emailPlaceholder: string
    phone: string
    phoneOptional: string
    phonePlaceholder: string
    message: string
    messagePlaceholder: string
    website: string
    submit: string
    submitting: string
    required: string
    errorTitle: string
    errorDescription: string
    tooFast: string
    waitTitle: string
    /** "{seconds}" stands for the number; one form per plural category the locale uses. */
    waitDescription: { one: string; other: string }
    rateLimitedDescription: string
    validationTitle: string
    successTitle: string
    successDescription: string
  }
  rules: ContactMessages
  dialog: {
    title: string
    description: string
    /** "{name}" stands for the package's name. */
    selectedPackage: string
    close: string
    cancel: string
  }
}

/** The cooldown sentence for a number of seconds, with the locale's plural rule. */
export function waitDescription(
  copy: Pick<ContactCopy, 'locale'> & { form: Pick<ContactCopy['form'], 'waitDescription'> },
  seconds: number,
): string {
  const category = new Intl.PluralRules(copy.locale).select(seconds) === 'one' ? 'one' : 'other'
  return copy.form.waitDescription[category].replaceAll('{seconds}', String(seconds))
}

/** "Forfait choisi : Growth". */
export function selectedPackageLabel(
  copy: { dialog: Pick<ContactCopy['dialog'], 'selectedPackage'> },
  packageName: string,
): string {
  return copy.dialog.selectedPackage.replaceAll('{name}', packageName)
}
