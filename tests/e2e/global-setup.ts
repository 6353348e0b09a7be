import { installObservatory } from '../../scripts/lib/observatory.ts'

/*
 * Only when Playwright starts the servers itself (playwright.config.ts): what scripts/test.ts would
 * have passed in, read once the webServer is up. Workers inherit process.env from here.
 */
export default async function globalSetup() {
  if (!process.env.CONTENT_LAKE_TOKEN && process.env.CONTENT_LAKE_URL) {
    const response = await fetch(`${process.env.CONTENT_LAKE_URL}/v1/auth/local-token`)
    process.env.CONTENT_LAKE_TOKEN = ((await response.json()) as { token: string }).token
  }
  if (!process.env.OBSERVATORY_DIR) {
    try {
      process.env.OBSERVATORY_DIR = await installObservatory()
    } catch (error) {
      console.error(`The security-header tests will fail: ${(error as Error).message}`)
    }
  }
}
