/**
 * A soft decorative glow behind a section. Drawn as a radial gradient rather than a blurred circle:
 * a large `filter: blur()` is costly to rasterise on phones (and in software rendering), which delays
 * the first paint of the text around it.
 */
export function Glow({ className, tone = 'soft' }: { className: string; tone?: 'soft' | 'clay' }) {
  const colour = tone === 'soft' ? 'from-clay-soft/80' : 'from-clay/35'
  return (
    <div
      aria-hidden="true"
      className={`pointer-events-none absolute bg-radial ${colour} from-30% to-transparent to-70% ${className}`}
    />
  )
}
