/*
 * The contact flow's tunable settings, kept in private.settings by the rate-limit migration
 * (supabase/migrations/20261122100200_contact_rate_limit.sql), as SQL a local Supabase runs after
 * its migrations: test runs raise the per-address limit, whose own tests set it low. On a hosted
 * project the same `update` is run once in the SQL editor.
 */
export type ContactSettings = {
  /** Messages accepted per client address per window (the migration's default: 5). */
  contactRateLimit?: number
  /** Proxies in front of the API whose X-Forwarded-For entries count (default 1). */
  trustedProxyHops?: number
}

const KEYS: Record<keyof ContactSettings, string> = {
  contactRateLimit: 'contact_rate_limit_max',
  trustedProxyHops: 'trusted_proxy_hops',
}

export function contactSettingsSql(settings: ContactSettings): string[] {
  return Object.entries(settings).flatMap(([name, value]) => {
    if (value === undefined) return []
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`)
    return [`update private.settings set value = '${value}' where key = '${KEYS[name as keyof ContactSettings]}'`]
  })
}
