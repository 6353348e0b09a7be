/** Business constants of the contact flow (spec §5, §9). The database CHECKs use the same numbers. */
export const NAME_MIN = 2
export const NAME_MAX = 100
export const EMAIL_MAX = 255
export const PHONE_MIN_DIALOG = 8
export const PHONE_MAX = 20
export const MESSAGE_MIN = 10
export const MESSAGE_MAX = 1000
export const PACKAGE_MAX = 100
export const MIN_FILL_TIME_MS = 3000
export const COOLDOWN_MS = 60_000
