/**
 * The cache tags of a query: `sanity`, and the document types it reads, from its own filters
 * (`_type == "service"`, `_type in ["a", "b"]`). The webhook revalidates the published document's type (app/api/revalidate),
 * so every page that ran a query reading that type renders afresh: no page lists its tags by hand.
 * The site's queries follow no reference to another document type (assets only: a test holds it), so
 * their filters name every type they read.
 */
export function queryTags(query: string): string[] {
  const types = [...query.matchAll(/_type\s*(?:==\s*("[^"]+")|in\s*\[([^\]]*)\])/g)].flatMap(([, one, list]) =>
    [...(one ?? list).matchAll(/"([^"]+)"/g)].map(([, type]) => type),
  )
  return ['sanity', ...new Set(types)]
}
