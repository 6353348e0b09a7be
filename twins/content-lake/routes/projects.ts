import { LOCAL_EDITOR } from '../content-lake-settings.ts'
import { gatewayError } from '../content-lake-error.ts'
import type { Route } from './route.ts'

/** /projects/<id>…: the one local project, its one dataset, and the editor as its administrator. */
export const projects: Route = {
  matches: ({ segments: [first, second] }) => first === 'projects' && Boolean(second),
  serve: ({ request, method, path, url, segments, json }, lake) => {
    const { projectId, dataset } = lake
    if (segments[1] !== projectId) throw gatewayError(404, 'Not Found', `Project "${segments[1]}" not found`)
    const rest = segments.slice(2)
    if (rest.length === 0) {
      return json(200, {
        id: projectId,
        displayName: 'Plume & Cap (local)',
        studioHost: null,
        isBlocked: false,
        isDisabled: false,
        isDisabledByUser: false,
        metadata: {},
        members: [
          {
            id: LOCAL_EDITOR.id,
            role: 'administrator',
            roles: LOCAL_EDITOR.roles,
            isCurrentUser: true,
            isRobot: false,
          },
        ],
        features: [],
        organizationId: null,
      })
    }
    if (rest[0] === 'datasets' && rest.length === 1) {
      // The Studio looks up the comments add-on dataset with `?datasetProfile=comments&addonFor=<ds>`:
      // there is none (no comments here), and the content dataset is no add-on of anything.
      const profile = url.searchParams.get('datasetProfile')
      if ((profile !== null && profile !== 'content') || url.searchParams.has('addonFor')) return json(200, [])
      return json(200, [{ name: dataset, aclMode: 'public' }])
    }
    if (rest[0] === 'datasets' && rest[2] === 'acl') {
      lake.requireDataset(rest[1])
      const editor = lake.access.authenticate(request, false)
      return json(200, [
        {
          filter: '_id in path("**")',
          permissions: editor ? ['history', 'read', 'create', 'update', 'manage'] : ['read'],
        },
      ])
    }
    if (rest[0] === 'grants') return json(200, {})
    if (rest[0] === 'features') return json(200, [])
    if (rest[0] === 'user-applications') return json(200, [])
    if (rest[0] === 'new-content-release-allowed') return json(200, { allowed: false })
    throw gatewayError(404, 'Not Found', `No such endpoint: ${method} ${path}`)
  },
}
