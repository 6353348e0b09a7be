/**
 * Settings of the local Content Lake shared by the server, the site's content layer, the Studio and
 * the scripts. Loopback only: none of these is a secret worth more than the machine it runs on.
 */
export const LOCAL_CONTENT_LAKE_PORT = 54380
export const LOCAL_PROJECT_ID = 'local'
/** A hosted Sanity project id, as `NEXT_PUBLIC_SANITY_PROJECT_ID` must hold one; anything else means the local Content Lake. */
export const isHostedProjectId = (id: string | undefined) => /^[a-z0-9-]+$/.test(id ?? '')
export const LOCAL_DATASET = 'production'
/** Where the site runs by default (npm start): the webhook target and the allowed CORS origin. */
export const LOCAL_SITE_URL = 'http://localhost:3000'
/** Where the site serves its Studio (sanity.config.ts's basePath): the one path the sign-in returns to. */
export const LOCAL_STUDIO_PATH = '/studio'
/** The editor every local request with the token acts as (GET /users/me). */
export const LOCAL_EDITOR = {
  id: 'local-editor',
  name: 'Éditeur local',
  email: 'editor@localhost.test',
  profileImage: null,
  provider: 'local',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
} as const

/**
 * The robot user behind the site's viewer token, as hosted Sanity names a project's robot token's own
 * user (GET /users/me, /auth/id): never the editor, so no tool takes the preview token for an editor's.
 */
export const LOCAL_VIEWER_ROBOT = {
  id: 'local-site-viewer',
  name: 'Aperçu du site (jeton lecteur)',
  email: null,
  profileImage: null,
  provider: 'sanity',
  role: 'viewer',
  roles: [{ name: 'viewer', title: 'Viewer' }],
} as const
