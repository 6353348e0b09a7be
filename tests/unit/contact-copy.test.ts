import { describe, expect, it } from 'vitest'
import en from '@/messages/en.json'
import fr from '@/messages/fr.json'
import { selectedPackageLabel, waitDescription } from '@/lib/contact/contact-copy'
import type { Locale } from '@/lib/i18n/routing'

const copy = (locale: Locale, messages: typeof fr) => ({
  locale,
  form: { waitDescription: messages.ContactForm.waitDescription },
})

describe('waitDescription', () => {
  it('uses the French plural rule', () => {
    expect(waitDescription(copy('fr', fr), 1)).toBe('Vous pourrez envoyer un nouveau message dans 1 seconde.')
    expect(waitDescription(copy('fr', fr), 2)).toBe('Vous pourrez envoyer un nouveau message dans 2 secondes.')
    expect(waitDescription(copy('fr', fr), 60)).toBe('Vous pourrez envoyer un nouveau message dans 60 secondes.')
  })

  it('uses the English plural rule', () => {
    expect(waitDescription(copy('en', en), 1)).toBe('You can send another message in 1 second.')
    expect(waitDescription(copy('en', en), 59)).toBe('You can send another message in 59 seconds.')
  })
})

describe('selectedPackageLabel', () => {
  it('names the package in each language', () => {
    expect(selectedPackageLabel({ dialog: fr.ContactDialog }, 'Growth')).toBe('Forfait choisi\u00a0: Growth')
    expect(selectedPackageLabel({ dialog: en.ContactDialog }, 'Growth')).toMatch(/Growth/)
  })
})
