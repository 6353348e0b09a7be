import bcrypt from 'bcryptjs'
import { serveRequests } from './worker-rpc.ts'

/*
 * A worker thread of the password hasher (password-hasher.ts): bcrypt is pure CPU for ~0.1 s a call,
 * which on the server's own thread would stall every other request meanwhile.
 */

/** GoTrue's default bcrypt cost. */
const BCRYPT_COST = 10

export type HashRequest = { op: 'hash'; password: string } | { op: 'compare'; password: string; hash: string | null }

/** Compared against when there is no stored hash (unknown email), so both failures take as long: the
 *  hash, at GoTrue's cost, of random bytes thrown away once it was made. */
const DUMMY_HASH = '$2b$10$lXrxytpvXe.z36KkI.n2veeYIko2hzuNnG6MX1umHe99vLbBLfboO'

await serveRequests<HashRequest, string | boolean, null>(async () => {
  return {
    info: null,
    handle: async (request) => {
      if (request.op === 'hash') return bcrypt.hashSync(request.password, BCRYPT_COST)
      try {
        return bcrypt.compareSync(request.password, request.hash ?? DUMMY_HASH) && request.hash !== null
      } catch {
        return false // a stored value that is no bcrypt hash matches no password
      }
    },
  }
})
