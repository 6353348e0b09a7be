import { Fragment } from 'react'
import { codePointLabel, splitInvisibleCharacters } from '@/supabase/functions/_shared/invisible-characters'

type Props = {
  text: string
  /** Invisible characters that belong in this text and stay as they are (a message's line breaks). */
  keep?: string
}

/**
 * A stored text with each invisible character (zero-width, direction override…) shown as a mark
 * naming it, so what the inbox shows is what was sent: "Bob \u202Egnp.exe" reads "Bob [U+202E]gnp.exe",
 * never "Bob exe.png". Each mark replaces its character, so nothing around it is reordered.
 */
export function VisibleText({ text, keep = '' }: Props) {
  return splitInvisibleCharacters(text, keep).map((piece, index) =>
    'text' in piece ? (
      <Fragment key={index}>{piece.text}</Fragment>
    ) : (
      <span
        key={index}
        className="mx-0.5 rounded bg-amber-100 px-1 font-mono text-xs text-amber-900"
        title={`Caractère invisible ${codePointLabel(piece.invisible)}`}
        data-testid="invisible-character"
      >
        {codePointLabel(piece.invisible)}
      </span>
    ),
  )
}
