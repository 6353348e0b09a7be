import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'smol-toml'

/*
 * The project's auth settings as the Supabase CLI reads them from supabase/config.toml (and
 * `supabase config push` sends them to a hosted project): the site URL and allowed redirects, the
 * password policy, the recovery email's template and its limits. Defaults are GoTrue's.
 */
export type AuthProjectConfig = {
  siteUrl: string
  redirectUrls: string[]
  minimumPasswordLength: number
  requiresLowerUpperDigits: boolean
  /** How long a recovery link works (auth.email.otp_expiry, seconds). */
  otpExpirySeconds: number
  /** The least time between two emails to one account (auth.email.max_frequency). */
  maxFrequencySeconds: number
  mailFrom: string
  recoveryTemplate: { subject: string; html: string }
}

const GOTRUE_RECOVERY = {
  subject: 'Reset Your Password',
  html: '<h2>Reset Password</h2>\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .RedirectTo }}?token_hash={{ .TokenHash }}&type=recovery">Reset Password</a></p>',
}

type Table = Record<string, unknown>
const table = (value: unknown): Table => (value && typeof value === 'object' ? (value as Table) : {})

/** "1m", "60s", "1h" (config.toml's durations) in seconds. */
function seconds(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value
  const match = typeof value === 'string' ? /^(\d+)(s|m|h)$/.exec(value.trim()) : null
  return match ? Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'] : fallback
}

export function readAuthConfig(supabaseDir: string): AuthProjectConfig {
  const file = join(supabaseDir, 'config.toml')
  const auth = table(existsSync(file) ? parse(readFileSync(file, 'utf8')).auth : undefined)
  const email = table(auth.email)
  const recovery = table(table(email.template).recovery)
  // content_path is relative to the project's root, the folder that holds supabase/.
  const contentPath = typeof recovery.content_path === 'string' ? join(supabaseDir, '..', recovery.content_path) : null
  return {
    siteUrl: typeof auth.site_url === 'string' ? auth.site_url : 'http://127.0.0.1:3000',
    redirectUrls: Array.isArray(auth.additional_redirect_urls) ? auth.additional_redirect_urls.map(String) : [],
    minimumPasswordLength: typeof auth.minimum_password_length === 'number' ? auth.minimum_password_length : 6,
    requiresLowerUpperDigits: auth.password_requirements === 'lower_upper_letters_digits',
    otpExpirySeconds: seconds(email.otp_expiry, 3600),
    maxFrequencySeconds: seconds(email.max_frequency, 60),
    mailFrom:
      typeof table(email.smtp).admin_email === 'string' ? String(table(email.smtp).admin_email) : 'admin@email.com',
    recoveryTemplate: {
      subject: typeof recovery.subject === 'string' ? recovery.subject : GOTRUE_RECOVERY.subject,
      html: contentPath && existsSync(contentPath) ? readFileSync(contentPath, 'utf8') : GOTRUE_RECOVERY.html,
    },
  }
}
