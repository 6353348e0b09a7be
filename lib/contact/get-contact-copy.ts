import 'server-only'
import { getTranslations } from 'next-intl/server'
import type { Locale } from '@/lib/i18n/routing'
import type { ContactCopy } from './contact-copy'

/** The contact form's and dialog's texts in one language (see ContactCopy). */
export async function getContactCopy(locale: Locale): Promise<ContactCopy> {
  const [form, dialog] = await Promise.all([
    getTranslations({ locale, namespace: 'ContactForm' }),
    getTranslations({ locale, namespace: 'ContactDialog' }),
  ])
  // Raw: these keep their {seconds} / {name} placeholders, which the client fills in.
  const raw = (key: Parameters<typeof form.raw>[0]) => form.raw(key) as string
  return {
    locale,
    form: {
      name: form('name'),
      namePlaceholder: form('namePlaceholder'),
      email: form('email'),
      emailPlaceholder: form('emailPlaceholder'),
      phone: form('phone'),
      phoneOptional: form('phoneOptional'),
      phonePlaceholder: form('phonePlaceholder'),
      message: form('message'),
      messagePlaceholder: form('messagePlaceholder'),
      website: form('website'),
      submit: form('submit'),
      submitting: form('submitting'),
      required: form('required'),
      errorTitle: form('errorTitle'),
      errorDescription: form('errorDescription'),
      tooFast: form('tooFast'),
      waitTitle: form('waitTitle'),
      waitDescription: { one: raw('waitDescription.one'), other: raw('waitDescription.other') },
      rateLimitedDescription: form('rateLimitedDescription'),
      validationTitle: form('validationTitle'),
      successTitle: form('successTitle'),
      successDescription: form('successDescription'),
    },
    rules: {
      nameMin: form('rules.nameMin'),
      nameMax: form('rules.nameMax'),
      nameInvisible: form('rules.nameInvisible'),
      emailInvalid: form('rules.emailInvalid'),
      emailMax: form('rules.emailMax'),
      emailInvisible: form('rules.emailInvisible'),
      phoneMin: form('rules.phoneMin'),
      phoneMax: form('rules.phoneMax'),
      messageMin: form('rules.messageMin'),
      messageMax: form('rules.messageMax'),
    },
    dialog: {
      title: dialog('title'),
      description: dialog('description'),
      selectedPackage: dialog.raw('selectedPackage') as string,
      close: dialog('close'),
      cancel: dialog('cancel'),
    },
  }
}
