'use client'

import { useEffect, useId, useMemo, useRef, type FormEvent, type ReactNode } from 'react'
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form'
import { buttonClasses } from '@/components/ui/button-styles'
import { waitDescription, type ContactCopy } from '@/lib/contact/contact-copy'
import type { ContactFormValues } from '@/lib/contact/contact-schema'
import { MESSAGE_MAX, MIN_FILL_TIME_MS } from '@/lib/contact/contact-limits'
import { cooldownSecondsLeft, recordContactSuccess } from '@/lib/contact/cooldown'
import { revealFocusedField } from '@/lib/scroll'
import { dismissToast, toast, type Toast } from '@/lib/toast-store'
import { useHydrated } from '@/lib/use-hydrated'

type ContactFormProps = {
  /** 'dialog': phone 8–20, closes after a success. 'page': phone ≤ 20, 60 s cooldown, validation toast. */
  variant: 'dialog' | 'page'
  copy: ContactCopy
  packageName?: string | null
  /** When the form was opened: the fill time is measured from here (a dialog passes its open time). */
  openedAt?: number
  onSuccess?: () => void
  /** The dialog shows a Cancel button next to Send. */
  onCancel?: () => void
}

const FIELD_ORDER = ['name', 'email', 'phone', 'message'] as const
type FieldName = (typeof FIELD_ORDER)[number]
const EMPTY_VALUES: ContactFormValues = { name: '', email: '', phone: '', message: '', website: '', package: '' }

/** When the page was first painted (epoch ms), or when navigation started if the browser cannot say. */
function firstPaintTime(): number {
  const paint = performance.getEntriesByName('first-contentful-paint')[0]
  return performance.timeOrigin + (paint?.startTime ?? 0)
}

/** The contact form of spec §4–§9, shared by the contact page and the package dialog. */
export function ContactForm({ variant, copy, packageName = null, openedAt, onSuccess, onCancel }: ContactFormProps) {
  const id = useId()
  const mountedAt = useRef(0)
  // Until React has hydrated the form, the browser would submit it natively (a GET with the fields in
  // the URL): the send button stays disabled until then, which also blocks Enter-to-submit.
  const ready = useHydrated()
  // A form hydrated from the server's HTML was on screen since the first paint, before its code ran:
  // the fill time counts from then. A form mounted in the browser counts from its mount.
  const serverRendered = useRef(!ready)
  useEffect(() => {
    mountedAt.current = serverRendered.current ? firstPaintTime() : Date.now()
  }, [])
  const text = copy.form
  const messages = copy.rules
  // zod and its resolver load on the first validation, not with the page (first-load JS budget).
  const resolver = useMemo<Resolver<ContactFormValues>>(
    () => async (values, context, options) => {
      const [{ zodResolver }, { createContactSchema }] = await Promise.all([
        import('@hookform/resolvers/zod'),
        import('@/lib/contact/contact-schema'),
      ])
      return zodResolver(createContactSchema({ variant, messages }))(values, context, options)
    },
    [variant, messages],
  )
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    setValue,
    control: formControl,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues>({
    resolver,
    // No defaults for the typed fields: registering then reads what the input already holds instead of
    // clearing it (the page form hydrates after the visitor may have started typing).
    defaultValues: { package: packageName ?? '' },
  })

  // The message as typed, trimmed as the rule counts it, for its count (MessageLabel, MessageLeft).
  const messageLength = (useWatch({ control: formControl, name: 'message' }) ?? '').trim().length
  useEffect(() => {
    // What was typed before the form's code ran is in the field (the server's HTML), not yet in the
    // form's values that the count watches: hand it over once.
    const typed = (document.getElementById(`${id}-message`) as HTMLTextAreaElement | null)?.value
    if (typed) setValue('message', typed)
  }, [id, setValue])

  // One toast per form, saying what the last submit ended in: a refusal the visitor has corrected must
  // not stand beside the success, nor repeated refusals pile up.
  const shownToast = useRef(0)
  const say = (input: Omit<Toast, 'id'>) => {
    dismissToast(shownToast.current)
    shownToast.current = toast(input)
  }
  const errorToast = () => say({ variant: 'error', title: text.errorTitle, description: text.errorDescription })

  async function onValid(values: ContactFormValues) {
    const { submitContact } = await import('@/lib/contact/submit-contact')
    const outcome = await submitContact({ ...values, package: packageName ?? values.package ?? null }, copy.locale)
    if (outcome === 'rate_limited') {
      say({ variant: 'error', title: text.waitTitle, description: text.rateLimitedDescription })
      return
    }
    if (outcome === 'error') return errorToast()
    say({ variant: 'success', title: text.successTitle, description: text.successDescription })
    reset({ ...EMPTY_VALUES, package: packageName ?? '' })
    if (variant === 'page') recordContactSuccess()
    onSuccess?.()
  }

  function onInvalid(fieldErrors: FieldErrors<ContactFormValues>) {
    if (variant !== 'page') return
    const first = FIELD_ORDER.map((field) => fieldErrors[field]?.message).find(Boolean)
    say({ variant: 'error', title: text.validationTitle, description: first ?? undefined })
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    // Anti-bot checks come first and send nothing (spec §5, §8).
    if (getValues('website')) return errorToast()
    if (Date.now() - (openedAt ?? mountedAt.current) < MIN_FILL_TIME_MS) {
      say({ variant: 'error', title: text.tooFast })
      return
    }
    if (variant === 'page') {
      const seconds = cooldownSecondsLeft()
      if (seconds > 0) {
        say({ variant: 'error', title: text.waitTitle, description: waitDescription(copy, seconds) })
        return
      }
    }
    // The rules and the sending code load now (resolver, onValid). Offline, or once a new deployment has
    // replaced the chunks this page knows, that load fails: the visitor is told, the fields stay filled.
    try {
      await handleSubmit(onValid, onInvalid)(event)
    } catch {
      errorToast()
    }
  }

  const fieldClass =
    'mt-2 block w-full rounded-xl border border-control bg-white px-4 py-3 text-ink placeholder:text-muted/70 transition-colors focus:border-clay focus:outline-none focus-visible:outline-2 focus-visible:outline-clay disabled:bg-sand/60 aria-[invalid=true]:border-red-700'
  const buttonSize = variant === 'dialog' ? 'md' : 'lg'
  const labelClass = 'block text-sm font-semibold text-ink'
  const errorClass = 'mt-1.5 text-sm font-medium text-red-800'
  /** What every visible control shares: its id, look, validity, link to its error, and registration. */
  const control = (name: FieldName) => ({
    id: `${id}-${name}`,
    className: fieldClass,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    ...register(name),
  })
  /** A label, its control and, when the rule fails, the rule's message. */
  const field = (name: FieldName, label: ReactNode, input: ReactNode) => (
    <div>
      <label htmlFor={`${id}-${name}`} className={labelClass}>
        {label}
      </label>
      {input}
      {errors[name] ? (
        <p id={`${id}-${name}-error`} className={errorClass}>
          {errors[name].message}
        </p>
      ) : null}
    </div>
  )

  return (
    <form
      onSubmit={onSubmit}
      // The page's form lies under the fixed header; the dialog is above it (the top layer).
      onFocus={variant === 'page' ? (event) => revealFocusedField(event.target) : undefined}
      noValidate
      className="space-y-5"
      data-testid={`contact-form-${variant}`}
    >
      <fieldset disabled={isSubmitting} className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          {field(
            'name',
            `${text.name} *`,
            <input {...control('name')} autoComplete="name" placeholder={text.namePlaceholder} />,
          )}
          {field(
            'email',
            `${text.email} *`,
            <input
              {...control('email')}
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder={text.emailPlaceholder}
            />,
          )}
        </div>
        {field(
          'phone',
          <>
            {text.phone} <span className="font-normal text-muted">{text.phoneOptional}</span>
          </>,
          <input
            {...control('phone')}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            placeholder={text.phonePlaceholder}
          />,
        )}
        {field(
          'message',
          <MessageLabel text={text} locale={copy.locale} length={messageLength} />,
          <>
            <textarea
              {...control('message')}
              className={`${fieldClass} resize-y`}
              // Four lines in the dialog, so that the whole form fits a common phone (390×844).
              rows={variant === 'dialog' ? 4 : 5}
              placeholder={text.messagePlaceholder}
            />
            <MessageLeft text={text} locale={copy.locale} length={messageLength} />
          </>,
        )}
        {/* Honeypot: invisible to people and assistive technology; bots that fill every field give themselves away. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={`${id}-website`}>{text.website}</label>
          <input id={`${id}-website`} tabIndex={-1} autoComplete="off" {...register('website')} />
        </div>
      </fieldset>
      <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">{text.required}</p>
        {/* Side by side, Send on the right, and stacked (Send on top) only where they do not fit: the
            dialog's buttons are a size smaller, so on a phone one row holds both. */}
        <div className="flex flex-wrap-reverse gap-3">
          {onCancel ? (
            <button
              type="button"
              onClick={onCancel}
              className={buttonClasses('secondary', buttonSize, 'grow sm:grow-0')}
              data-testid="contact-dialog-cancel"
            >
              {copy.dialog.cancel}
            </button>
          ) : null}
          <button
            type="submit"
            disabled={!ready || isSubmitting}
            className={buttonClasses('accent', buttonSize, 'grow sm:grow-0')}
            data-testid="contact-submit"
          >
            {isSubmitting ? text.submitting : text.submit}
          </button>
        </div>
      </div>
    </form>
  )
}

/** Where the visitor is told how much is left: at these counts of characters left, and past the limit. */
const ANNOUNCED_AT = [100, 50, 20, 10, 0]

type CountProps = { text: ContactCopy['form']; locale: string; length: number }

/** The message's label with its count, « 120 / 1 000 » (hidden from screen readers: MessageLeft says it). */
function MessageLabel({ text, locale, length }: CountProps) {
  const number = new Intl.NumberFormat(locale)
  return (
    <span className="flex items-baseline justify-between gap-3">
      <span>{`${text.message} *`}</span>
      <span
        aria-hidden="true"
        className={`font-normal tabular-nums ${length > MESSAGE_MAX ? 'text-red-800' : 'text-muted'}`}
        data-testid="message-count"
      >
        {text.messageCount.replace('{count}', number.format(length)).replace('{max}', number.format(MESSAGE_MAX))}
      </span>
    </span>
  )
}

/**
 * For screen readers, how much of the message is left once the end is near: said when it crosses 100,
 * 50, 20, 10 and 0 characters left, not at every key.
 */
function MessageLeft({ text, locale, length }: CountProps) {
  const left = MESSAGE_MAX - length
  const step = left > ANNOUNCED_AT[0] ? -1 : ANNOUNCED_AT.filter((threshold) => left <= threshold).length
  // Computed when a threshold is crossed only (`left` changes at every key): the count at that moment.
  const announced = useMemo(() => {
    if (step < 0) return ''
    const form = new Intl.PluralRules(locale).select(Math.max(left, 0)) === 'one' ? 'one' : 'other'
    return text.messageRemaining[form].replace('{count}', new Intl.NumberFormat(locale).format(Math.max(left, 0)))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, locale, text])
  return (
    <p role="status" className="sr-only" data-testid="message-left">
      {announced}
    </p>
  )
}
