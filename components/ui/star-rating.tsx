import { Icon } from './icon'

/** Five stars with `rating` of them filled; the accessible name says the rating in words. */
export function StarRating({ rating, label }: { rating: number; label: string }) {
  return (
    <div role="img" aria-label={label} className="flex gap-1">
      {[1, 2, 3, 4, 5].map((star) => (
        <span
          key={star}
          data-filled={star <= rating ? 'true' : 'false'}
          className={star <= rating ? 'text-gold [&_path]:fill-current' : 'text-sand-strong'}
        >
          <Icon name="star" className="size-5" />
        </span>
      ))}
    </div>
  )
}
