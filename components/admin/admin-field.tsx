import type { InputHTMLAttributes } from 'react'

type AdminFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'className'> & {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
}

/** A labelled text field of the inbox's forms (sign-in, « Mot de passe oublié », new password). */
export function AdminField({ id, label, onChange, ...input }: AdminFieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <input
        id={id}
        {...input}
        onChange={(event) => onChange(event.target.value)}
        className="mt-2 block w-full rounded-xl border border-control bg-white px-4 py-3 text-ink focus:border-clay focus:outline-none disabled:bg-sand/60"
      />
    </div>
  )
}
