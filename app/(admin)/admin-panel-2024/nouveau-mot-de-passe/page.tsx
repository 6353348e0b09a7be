import { PasswordReset } from '@/components/admin/password-reset'

/** Where the recovery email's link leads (lib/admin/password-recovery.ts): noindex like the inbox. */
export default function PasswordResetPage() {
  return <PasswordReset />
}
