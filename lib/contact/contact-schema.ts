import { z } from 'zod'
import {
  EMAIL_MAX,
  MESSAGE_MAX,
  MESSAGE_MIN,
  NAME_MAX,
  NAME_MIN,
  PACKAGE_MAX,
  PHONE_MAX,
  PHONE_MIN_DIALOG,
} from './contact-limits.ts'
import { hasInvisibleCharacters } from '../../supabase/functions/_shared/invisible-characters.ts'
import type messages from '../../messages/fr.json'
import type { Locale } from '../i18n/routing.ts'

// Zod would probe `new Function` to compile faster validators; the site's Content-Security-Policy
// forbids eval, so the probe would only raise a policy violation. The interpreted path is plenty fast.
z.config({ jitless: true })

/*
 * The one contact schema: the browser form (both variants) and the tests use it; the database's CHECKs
 * hold the same rules (supabase/migrations). What a new field touches: docs/supabase.md.
 */

/**
 * The rule messages, in the visitor's language: messages/<locale>.json's `ContactForm.rules` (the spec's
 * French texts, character for character, are in messages/fr.json only). The invisible-character rules
 * are ours (the sender shown in the inbox must be the sender typed).
 */
export type ContactMessages = (typeof messages)['ContactForm']['rules']

export type ContactVariant = 'dialog' | 'page'

/** Same shape as the CHECK contact_submissions_email_check (JavaScript \s = the whitespace class there). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function createContactSchema({ variant, messages }: { variant: ContactVariant; messages: ContactMessages }) {
  const phone =
    variant === 'dialog'
      ? z
          .string()
          .trim()
          .refine((value) => value === '' || value.length >= PHONE_MIN_DIALOG, messages.phoneMin)
          .refine((value) => value.length <= PHONE_MAX, messages.phoneMax)
      : z.string().trim().max(PHONE_MAX, messages.phoneMax)
  return z.object({
    name: z
      .string()
      .trim()
      .min(NAME_MIN, messages.nameMin)
      .max(NAME_MAX, messages.nameMax)
      .refine((value) => !hasInvisibleCharacters(value), messages.nameInvisible),
    email: z
      .string()
      .trim()
      .max(EMAIL_MAX, messages.emailMax)
      .regex(EMAIL_SHAPE, messages.emailInvalid)
      .refine((value) => !hasInvisibleCharacters(value), messages.emailInvisible),
    phone: phone.optional().default(''),
    message: z.string().trim().min(MESSAGE_MIN, messages.messageMin).max(MESSAGE_MAX, messages.messageMax),
    /** Honeypot: must stay empty. */
    website: z.string().max(0).optional().default(''),
    package: z.string().trim().max(PACKAGE_MAX).nullable().optional(),
  })
}

export type ContactFormValues = z.input<ReturnType<typeof createContactSchema>>
export type ContactValues = z.output<ReturnType<typeof createContactSchema>>

export type InsertRow = {
  name: string
  email: string
  phone: string | null
  message: string
  package: string | null
  /** The language of the page it was sent from: the agency answers in it (CHECK: fr or en). */
  locale: Locale
}

/** The row inserted into contact_submissions: trimmed, empty phone and package as null. */
export function toInsertRow(values: ContactFormValues, locale: Locale): InsertRow {
  const clean = (value: string | null | undefined) => (value ?? '').trim()
  return {
    name: clean(values.name),
    email: clean(values.email),
    phone: clean(values.phone) || null,
    message: clean(values.message),
    package: clean(values.package) || null,
    locale,
  }
}
