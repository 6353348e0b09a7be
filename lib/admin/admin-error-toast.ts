import type { Toast } from '@/lib/toast-store'

/** What the inbox says when a call fails for a reason it has no words of its own for (spec §8). */
export const ADMIN_ERROR_TOAST = {
  variant: 'error',
  title: "Une erreur s'est produite",
  description: 'Veuillez réessayer plus tard.',
} as const satisfies Omit<Toast, 'id'>
