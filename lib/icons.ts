/**
 * The icon names editors may pick in the Studio, each drawn by components/ui/icon.tsx; keeping
 * the list here lets the schema and the renderer agree without the schema importing React.
 */
export const ICON_NAMES = [
  'linkedin',
  'pen',
  'mail',
  'compass',
  'target',
  'sparkles',
  'chart',
  'zap',
  'refresh',
  'search',
  'layers',
  'trending',
  'users',
  'calendar',
  'clock',
  'award',
  'heart',
  'book',
  'feather',
  'shield',
  'message',
  'rocket',
  'briefcase',
  'star',
  'check',
  'globe',
  'lightbulb',
] as const

export type IconName = (typeof ICON_NAMES)[number]

export function isIconName(value: unknown): value is IconName {
  return typeof value === 'string' && (ICON_NAMES as readonly string[]).includes(value)
}
