import { jwtVerify, SignJWT, type JWTPayload } from 'jose'

/** The database roles a JWT may name (PostgREST switches to the one in the `role` claim). */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const
export type ApiRole = (typeof API_ROLES)[number]

export type Claims = JWTPayload & { role: ApiRole; session_id?: string; email?: string }

export class JwtError extends Error {}

export function createJwtKit(secret: string) {
  const key = new TextEncoder().encode(secret)

  // Verified tokens are remembered until they expire: every anonymous request carries the same anon
  // key, and re-checking its signature was a measurable share of a request's time.
  const verified = new Map<string, Claims>()

  async function verify(token: string): Promise<Claims> {
    const known = verified.get(token)
    if (known && (typeof known.exp !== 'number' || known.exp * 1000 > Date.now())) return known
    const claims = await verifyUncached(token)
    if (verified.size >= 10_000) verified.clear()
    verified.set(token, claims)
    return claims
  }

  async function verifyUncached(token: string): Promise<Claims> {
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'] }))
    } catch (error) {
      const expired = error instanceof Error && 'code' in error && error.code === 'ERR_JWT_EXPIRED'
      throw new JwtError(expired ? 'JWT expired' : 'invalid JWT: unable to parse or verify signature')
    }
    const role = payload.role ?? 'anon'
    if (typeof role !== 'string' || !(API_ROLES as readonly string[]).includes(role)) {
      throw new JwtError(`JWT role "${String(role)}" is not allowed`)
    }
    return { ...payload, role: role as ApiRole }
  }

  function sign(claims: JWTPayload, expiresInSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInSeconds)
      .sign(key)
  }

  return { verify, sign }
}

export type JwtKit = ReturnType<typeof createJwtKit>
