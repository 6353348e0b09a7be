/**
 * A random (version 4) UUID for a message the form is about to store: the form names the message
 * with it when it asks for the notification, since visitors may not read the row back. Built from
 * crypto.getRandomValues, which browsers offer on plain-HTTP pages too (crypto.randomUUID needs a
 * secure context, e.g. not a phone testing the site over the local network).
 */
export function newSubmissionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6] & 0x0f) | 0x40 // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80 // RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
