import { describe, expect, it } from 'vitest'
import { serverConfigWarnings } from '@/lib/server-config-warnings'

const strong = 'x'.repeat(32)

describe('serverConfigWarnings (what instrumentation.ts says loudly when a server starts)', () => {
  it('says that a site without SANITY_REVALIDATE_SECRET refuses every webhook', () => {
    const warnings = serverConfigWarnings({ NEXT_PUBLIC_SANITY_PROJECT_ID: 'abc123de' })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/SANITY_REVALIDATE_SECRET is not set.*refuse/s)
  })

  it('says when a secret is too short to resist guessing', () => {
    expect(serverConfigWarnings({ SANITY_REVALIDATE_SECRET: 'secret' }).join('\n')).toMatch(
      /SANITY_REVALIDATE_SECRET is shorter than 32/,
    )
    expect(serverConfigWarnings({ SANITY_REVALIDATE_SECRET: strong, DRAFT_MODE_SECRET: 'short' }).join('\n')).toMatch(
      /DRAFT_MODE_SECRET is shorter than 32/,
    )
  })

  it('has nothing to say about a complete setup', () => {
    expect(serverConfigWarnings({ SANITY_REVALIDATE_SECRET: strong, DRAFT_MODE_SECRET: strong })).toEqual([])
  })
})
