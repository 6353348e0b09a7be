import type messages from '../../messages/fr.json'
import type { ContactMessages } from './contact-schema'
import type { Locale } from '../i18n/routing'

/**
 * Every text the contact form and dialog show, resolved on the server from messages/<locale>.json
 * (getContactCopy) and handed to these client components as a prop: the browser then needs no message
 * formatter (next-intl's client runtime would cost ~12 KiB gzip on every page). Its shape is the
 * messages' own: a text added there is here. `{seconds}` and `{name}` are filled in by the client.
 */
export type ContactCopy = {
  locale: Locale
  form: Omit<(typeof messages)['ContactForm'], 'rules'>
  rules: ContactMessages
  dialog: (typeof messages)['ContactDialog']
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
