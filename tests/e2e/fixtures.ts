import { test as base, expect, type BrowserContext } from '@playwright/test'

/*
 * Every browser test fails on a Content-Security-Policy violation: each page and frame reports the
 * `securitypolicyviolation` events it sees, and the test checks there were none after it ran; a test
 * that must log no error asks for `consoleErrors` and checks it where it means to. Specs
 * import `test` and `expect` from here; a test that opens its own context passes it to
 * `watchedContext`. Tests that read pages at rest load them `AT_REST` (below).
 */

const violationsByContext = new WeakMap<BrowserContext, string[]>()

async function watchCspViolations(context: BrowserContext): Promise<string[]> {
  const known = violationsByContext.get(context)
  if (known) return known
  const violations: string[] = []
  violationsByContext.set(context, violations)
  await context.exposeBinding('__reportCspViolation', ({ frame }, report: string) => {
    violations.push(`${report} (page ${frame.url()})`)
  })
  await context.addInitScript(() => {
    window.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'}${event.sample ? ` «${event.sample}»` : ''} at ${event.sourceFile || '?'}:${event.lineNumber}`
        ;(window as unknown as { __reportCspViolation?: (report: string) => void }).__reportCspViolation?.(report)
      },
      true,
    )
  })
  return violations
}

/** Contexts opened with `browser.newContext()` during a test, checked like the default one. */
const extraContexts: BrowserContext[] = []
export async function watchedContext(context: BrowserContext): Promise<BrowserContext> {
  await watchCspViolations(context)
  extraContexts.push(context)
  return context
}

/** Contexts that outlive a test (a worker's shared Studio page): each test is checked for what they saw during it. */
const sharedContexts = new Set<BrowserContext>()
export async function watchedSharedContext(context: BrowserContext): Promise<BrowserContext> {
  await watchCspViolations(context)
  sharedContexts.add(context)
  context.once('close', () => sharedContexts.delete(context))
  return context
}

export const test = base.extend<{ cspViolations: string[]; consoleErrors: string[] }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations = await watchCspViolations(context)
      extraContexts.length = 0
      const seenBefore = new Map(
        [...sharedContexts].map((shared) => [shared, violationsByContext.get(shared)?.length ?? 0]),
      )
      await use(violations)
      const all = [
        ...violations,
        ...extraContexts.flatMap((extra) => violationsByContext.get(extra) ?? []),
        ...[...sharedContexts].flatMap((shared) =>
          (violationsByContext.get(shared) ?? []).slice(seenBefore.get(shared) ?? 0),
        ),
      ]
      expect(all, 'Content-Security-Policy violations seen by the pages of this test').toEqual([])
    },
    { auto: true },
  ],
  /**
   * What the test's page logged as errors: console.error calls, the browser's own error messages (a
   * request refused by CORS…) and uncaught exceptions. Not checked by itself: a test that must cause
   * none reads it (e.g. after sending a form, whose follow-up calls only log their failures).
   */
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
      await use(errors)
    },
    { auto: false },
  ],
})

/**
 * For tests that read pages at rest (the page loops: axe, reflow, text spacing, metadata, hydration):
 * pages loaded with reduced motion asked for are at rest as soon as they have loaded. They are the same
 * pages: with reduced motion the site changes only how things move (app/site-design.css: animations and
 * transitions of 0.01 ms, instant scrolling; the contact dialog appears without its fade), so every
 * colour, size and position a check reads is the one a visitor sees once the hero has faded in. It
 * halves what a page load costs the browser here (0.45–0.7 → 0.3 CPU-s, measured on eight pages).
 * Motion itself is checked by accessibility-reflow-spacing-motion.spec.ts's 2.3.3 test, and every interaction test runs with
 * it, as visitors have it by default.
 */
export const AT_REST = { reducedMotion: 'reduce' } as const

export { expect }

/**
 * The Supabase project's service-role key, for tests that check what was stored: the variable the site's
 * scripts read, which the test command (and Playwright's config, for its own servers) sets to the local
 * Supabase's.
 */
/** The public key the site's pages hold (what any visitor can use). */
export function anonKey(): string {
  const key = process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY
  if (!key) throw new Error('NEXT_PUBLIC_SUPABASE_ANON_KEY is not set: run the browser tests through `npm test -- e2e`')
  return key
}

export function serviceRoleKey(): string {
  const key = process.env.SUPABASE_SERVICE_ROLE_KEY
  if (!key) throw new Error('SUPABASE_SERVICE_ROLE_KEY is not set: run the browser tests through `npm test -- e2e`')
  return key
}
