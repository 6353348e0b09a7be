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

/** What the Studio's icon list calls each icon: the agency's staff read French (the stored value stays the name). */
export const ICON_TITLES: Record<IconName, string> = {
  linkedin: 'LinkedIn',
  pen: 'Stylo',
  mail: 'Enveloppe',
  compass: 'Boussole',
  target: 'Cible',
  sparkles: 'Étincelles',
  chart: 'Graphique',
  zap: 'Éclair',
  refresh: 'Flèches en cercle',
  search: 'Loupe',
  layers: 'Calques',
  trending: 'Courbe montante',
  users: 'Personnes',
  calendar: 'Calendrier',
  clock: 'Horloge',
  award: 'Médaille',
  heart: 'Cœur',
  book: 'Livre',
  feather: 'Plume',
  shield: 'Bouclier',
  message: 'Bulle de message',
  rocket: 'Fusée',
  briefcase: 'Mallette',
  star: 'Étoile',
  check: 'Coche',
  globe: 'Globe',
  lightbulb: 'Ampoule',
}

export function isIconName(value: unknown): value is IconName {
  return typeof value === 'string' && (ICON_NAMES as readonly string[]).includes(value)
}
