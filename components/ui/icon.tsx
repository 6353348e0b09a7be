import type { IconName } from '@/lib/icons'
import { isIconName } from '@/lib/icons'

/* 24×24 stroke icons drawn for this site; one path set per name editors can choose in the Studio. */
const PATHS: Record<IconName, string[]> = {
  linkedin: [
    'M4 9h4v11H4z',
    'M6 4.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3z',
    'M11 9h3.6v1.6C15.3 9.6 16.4 9 18 9c2.2 0 3 1.4 3 4v7h-4v-6c0-1.2-.4-2-1.5-2S14 12.8 14 14v6h-3z',
  ],
  pen: ['M4 20l4.5-1 10-10a2.1 2.1 0 0 0-3-3l-10 10z', 'M13.5 6.5l3 3'],
  mail: ['M3 6h18v12H3z', 'M3 7l9 6 9-6'],
  compass: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M15.5 8.5l-2 5-5 2 2-5z'],
  target: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M12 12h.01'],
  sparkles: [
    'M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z',
    'M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
  ],
  chart: ['M4 20V4', 'M4 20h16', 'M8 16v-5', 'M12 16V8', 'M16 16v-3', 'M20 16V6'],
  zap: ['M13 2L4 14h7l-1 8 9-12h-7z'],
  refresh: ['M20 11a8 8 0 0 0-14.6-4.5L4 8', 'M4 4v4h4', 'M4 13a8 8 0 0 0 14.6 4.5L20 16', 'M20 20v-4h-4'],
  search: ['M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M20 20l-4-4'],
  layers: ['M12 3l9 5-9 5-9-5z', 'M3 13l9 5 9-5', 'M3 17.5l9 5 9-5'],
  trending: ['M3 17l6-6 4 4 8-8', 'M15 7h6v6'],
  users: [
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
    'M2 21v-1a6 6 0 0 1 6-6h2a6 6 0 0 1 6 6v1',
    'M16 3.5a4 4 0 0 1 0 7.5',
    'M19 14.5a6 6 0 0 1 3 5.5v1',
  ],
  calendar: ['M4 5h16v16H4z', 'M4 10h16', 'M8 3v4', 'M16 3v4'],
  clock: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 7v5l3 2'],
  award: ['M12 15a6 6 0 1 0 0-12 6 6 0 0 0 0 12z', 'M8.5 13.5L7 22l5-3 5 3-1.5-8.5'],
  heart: [
    'M12 20s-7.5-4.6-9-9.2C2 7.6 4.2 5 7 5c2 0 3.3 1.1 5 3 1.7-1.9 3-3 5-3 2.8 0 5 2.6 4 5.8-1.5 4.6-9 9.2-9 9.2z',
  ],
  book: ['M4 4.5A1.5 1.5 0 0 1 5.5 3H20v15H5.5A1.5 1.5 0 0 0 4 19.5z', 'M4 19.5A1.5 1.5 0 0 0 5.5 21H20v-3'],
  feather: ['M20 4c-6 0-12 4-13 12l-3 4', 'M20 4c0 7-4 12-11 12', 'M15 9l-8 8'],
  shield: ['M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z', 'M9 12l2 2 4-4'],
  message: ['M4 5h16v11H9l-5 4z'],
  rocket: [
    'M5 15c-1.5 1.5-2 5-2 5s3.5-.5 5-2',
    'M9 15l-3-3c1.5-4.5 5.5-9 13-9 0 7.5-4.5 11.5-9 13z',
    'M14.5 9.5a1 1 0 1 0 0-2 1 1 0 0 0 0 2z',
  ],
  briefcase: ['M3 7h18v13H3z', 'M8 7V4h8v3', 'M3 12h18'],
  star: ['M12 3l2.8 5.8 6.2.9-4.5 4.4 1.1 6.3L12 17.4l-5.6 3 1.1-6.3L3 9.7l6.2-.9z'],
  check: ['M4 12.5l5 5L20 6.5'],
  globe: [
    'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
    'M3 12h18',
    'M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z',
  ],
  lightbulb: ['M9 18h6', 'M10 21h4', 'M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3z'],
}

/*
 * The site's own controls (closing a dialog, a toast or the menu; opening the menu), which editors never
 * pick: kept out of ICON_NAMES, so the Studio's icon lists do not offer them. Each cross or bar set is
 * one path, as the buttons drew it before they used this component; its segments never meet, so the
 * round line join added here changes no pixel.
 */
const CONTROL_PATHS = {
  close: ['M6 6l12 12M18 6L6 18'],
  menu: ['M4 7h16M4 12h16M4 17h16'],
} satisfies Record<string, string[]>

const isControlName = (name: unknown): name is keyof typeof CONTROL_PATHS =>
  typeof name === 'string' && Object.hasOwn(CONTROL_PATHS, name)

type IconProps = {
  name: string | null | undefined
  className?: string
  title?: string
  /** The controls' glyphs are drawn heavier (1.8 or 2) than the content icons. */
  strokeWidth?: number
}

/** A decorative icon by name; unknown names fall back to a neutral mark rather than breaking a page. */
export function Icon({ name, className = 'size-6', title, strokeWidth = 1.7 }: IconProps) {
  const paths = isControlName(name) ? CONTROL_PATHS[name] : PATHS[isIconName(name) ? name : 'sparkles']
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
    >
      {title ? <title>{title}</title> : null}
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  )
}
