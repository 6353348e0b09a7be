import { defineField, type RuleDef } from 'sanity'
import { STATE_LABELS, translationStatus, type LocaleValue } from '../../lib/i18n/translation-status'

/**
 * Beside a bilingual field's `fr` and `en`: the French its English was written from, and when. The
 * Studio writes it when an editor writes the English, marks it current, or makes a minor French
 * correction (studio/translation/locale-input.tsx); a French change made anywhere else leaves it as it
 * was, so the English reads « à revoir » until someone looks (lib/i18n/translation-status.ts).
 */
export const englishSourceField = defineField({
  name: 'enSource',
  title: 'Français suivi par l’anglais',
  type: 'object',
  hidden: true,
  fields: [
    defineField({ name: 'fr', title: 'Français', type: 'text' }),
    defineField({ name: 'at', title: 'Écrit le', type: 'datetime' }),
  ],
})

/**
 * On the English (inside the bilingual type, where a document's own `validation` for the field does not
 * replace it): a warning, never an error, so publishing is never blocked by an English that may be out
 * of date.
 */
export const staleEnglishWarning = <R extends RuleDef<R, unknown>>(rule: R): R =>
  rule
    .custom((_english: unknown, context) =>
      translationStatus(context.parent as LocaleValue | undefined).state === 'stale'
        ? `Anglais ${STATE_LABELS.stale} : le français a changé depuis que l’anglais a été écrit.`
        : true,
    )
    .warning()
