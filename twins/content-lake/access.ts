import { timingSafeEqual } from 'node:crypto'
import { bearerToken, type Request } from '../http-kit.ts'
import { gatewayError, sessionNotFound } from './content-lake-error.ts'
import { LOCAL_EDITOR, LOCAL_VIEWER_ROBOT } from './content-lake-settings.ts'

/*
 * Who a request is, as the Content Lake decides it from its bearer token: the local editor (reads
 * and writes everything), the viewer (the site's server previewing drafts: reads, never writes), or
 * anonymous (published documents only). Any other token is refused, as the hosted API refuses an
 * unknown session.
 */
export class LakeAccess {
  private readonly editorToken: Buffer
  private readonly viewerToken: Buffer

  constructor(editorToken: string, viewerToken: string) {
    this.editorToken = Buffer.from(editorToken)
    this.viewerToken = Buffer.from(viewerToken)
  }

  private presents(request: Request, expected: Buffer): boolean {
    const presented = bearerToken(request)
    if (!presented) return false
    const bytes = Buffer.from(presented)
    return bytes.length === expected.length && timingSafeEqual(bytes, expected)
  }

  isEditor(request: Request): boolean {
    return this.presents(request, this.editorToken)
  }

  /** Refuses a token that is not ours; with `required`, also no token. True when a token was presented. */
  authenticate(request: Request, required: boolean): boolean {
    const presented = bearerToken(request)
    if (presented && !this.isEditor(request) && !this.presents(request, this.viewerToken))
      throw sessionNotFound('Session not found: the token is not a local token')
    if (required && !presented)
      throw gatewayError(401, 'Unauthorized', 'Not authorized: this request needs the local editor token')
    return Boolean(presented)
  }

  /** Who a request with a token acts as: the local editor, or the viewer token's robot user. */
  user(request: Request): typeof LOCAL_EDITOR | typeof LOCAL_VIEWER_ROBOT {
    this.authenticate(request, true)
    return this.isEditor(request) ? LOCAL_EDITOR : LOCAL_VIEWER_ROBOT
  }

  /** Writes need the editor token: the viewer token (a Viewer's, as the site previews with) only reads. */
  requireEditor(request: Request): void {
    this.authenticate(request, true)
    if (!this.isEditor(request))
      throw gatewayError(
        403,
        'Forbidden',
        'Insufficient permissions: this token reads only; writing needs the local editor token',
      )
  }
}
