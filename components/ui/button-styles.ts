/** Class names for the site's buttons, shared by <button>s and links that look like buttons. */
export type ButtonVariant = 'primary' | 'accent' | 'secondary' | 'ghost' | 'inverse'
export type ButtonSize = 'sm' | 'md' | 'lg'

const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors duration-200 disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-offset-4'

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-ink text-paper hover:bg-ink-soft',
  accent: 'bg-clay text-white hover:bg-clay-strong',
  secondary: 'border border-ink/15 bg-white text-ink hover:border-ink/40 hover:bg-sand',
  ghost: 'text-ink hover:bg-sand',
  inverse: 'bg-paper text-ink hover:bg-sand',
}

const sizes: Record<ButtonSize, string> = {
  sm: 'min-h-10 px-4 text-sm',
  md: 'min-h-11 px-5 text-[0.95rem]',
  lg: 'min-h-13 px-7 text-base',
}

export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra = ''): string {
  return [base, variants[variant], sizes[size], extra].filter(Boolean).join(' ')
}
