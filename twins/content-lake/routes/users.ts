import { badRequest } from '../content-lake-error.ts'
import { LOCAL_EDITOR } from '../content-lake-settings.ts'
import { readJson } from './exchange.ts'
import type { Route } from './route.ts'

/** /users/me (the editor, or the viewer token's robot), its key-value store, and /users/<ids>: one local editor. */
export const users: Route = {
  matches: ({ segments }) =>
    segments[0] === 'users' && (segments.length === 2 || (segments[1] === 'me' && segments[2] === 'keyvalue')),
  serve: async ({ request, method, segments, json }, lake) => {
    const [, second, third] = segments
    if (second === 'me' && segments.length === 2) return json(200, lake.access.user(request))
    if (second === 'me' && third === 'keyvalue') {
      lake.access.authenticate(request, true)
      if (method === 'PUT') {
        lake.access.requireEditor(request)
        const entries = await readJson(request)
        if (!Array.isArray(entries)) throw badRequest('Expected an array of {key, value}')
        for (const entry of entries)
          if (entry && typeof entry.key === 'string') lake.keyValues.set(entry.key, entry.value)
        return json(200, entries)
      }
      const keys = segments[3] ? segments[3].split(',') : [...lake.keyValues.keys()]
      return json(
        200,
        keys.map((key) => ({ key, value: lake.keyValues.get(key) ?? null })),
      )
    }
    const ids = second.split(',')
    json(
      200,
      ids
        .filter((id) => id === LOCAL_EDITOR.id)
        .map((id) => ({ id, displayName: LOCAL_EDITOR.name, email: LOCAL_EDITOR.email, imageUrl: null })),
    )
  },
}
