/** What the agency did with a message (the migration 20261229100000; labels in follow-up.ts). */
export type FollowUp = 'new' | 'in_progress' | 'answered' | 'archived'

/** A contact message as the inbox reads it (columns of contact_submissions). */
export type Submission = {
  id: string
  name: string
  email: string
  phone: string | null
  message: string
  package: string | null
  /** The language of the page it was sent from: the agency answers in it. */
  locale: 'fr' | 'en'
  created_at: string
  is_read: boolean
  /** What the agency was told (migration 20261210100100): sent at notified_at, else why not. */
  notified_at: string | null
  notification_status: 'never_asked' | 'sending' | 'sent' | 'delivery_failed'
  notification_attempts: number
  notification_next_attempt_at: string | null
  /** The function's technical reason for the last failed attempt (delivery_failed only). */
  notification_error?: string | null
  /** What the agency did with it (migration 20261229100000): answered at answered_at. */
  follow_up: FollowUp
  answered_at: string | null
  follow_up_changed_at: string | null
}
