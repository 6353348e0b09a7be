/** Shortest secret we accept without a warning: 32 characters (random ones: `openssl rand -base64 32`). */
const MIN_SECRET_LENGTH = 32

/**
 * What is wrong with the server's security settings, said loudly when the site's server starts
 * (instrumentation.ts: whichever server runs the build, ours, `next start` or the standalone one). It
 * starts anyway: the routes concerned refuse, as they say.
 */
export function serverConfigWarnings(env: Record<string, string | undefined> = process.env): string[] {
  const warnings: string[] = []
  if (!env.SANITY_REVALIDATE_SECRET) {
    warnings.push(
      'SANITY_REVALIDATE_SECRET is not set: /api/revalidate will refuse every webhook, and pages show a publish only after the next build. ' +
        "Set it to the secret of the project's webhook (docs/sanity.md: Connect a real Sanity project).",
    )
  }
  for (const name of ['SANITY_REVALIDATE_SECRET', 'DRAFT_MODE_SECRET']) {
    const value = env[name]
    if (value && value.length < MIN_SECRET_LENGTH)
      warnings.push(
        `${name} is shorter than ${MIN_SECRET_LENGTH} characters: use a long random one (openssl rand -base64 32).`,
      )
  }
  return warnings
}
