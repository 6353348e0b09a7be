import 'server-only'
import { getMessages } from 'next-intl/server'
import type { Locale } from '@/lib/i18n/routing'
import type { ContactCopy } from './contact-copy'

/** What messages/<locale>.json holds for the form and the dialog (next-intl types messages loosely). */
type ContactTexts = {
  ContactForm: ContactCopy['form'] & { rules: ContactCopy['rules'] }
  ContactDialog: ContactCopy['dialog']
}

/**
 * The contact form's and dialog's texts in one language, as messages/<locale>.json holds them (plain
 * texts: the ones with `{seconds}` or `{name}` are filled in by the client; see ContactCopy).
 */
export async function getContactCopy(locale: Locale): Promise<ContactCopy> {
  const { ContactForm, ContactDialog } = (await getMessages({ locale })) as unknown as ContactTexts
  const { rules, ...form } = ContactForm
  return { locale, form, rules, dialog: ContactDialog }
}
