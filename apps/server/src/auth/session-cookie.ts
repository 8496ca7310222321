import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/**
 * The session lives in a cookie that is encrypted and authenticated with AES-256-GCM under a key
 * derived from SESSION_SECRET: the browser can neither read nor forge it. It only names the user;
 * role and status are read fresh on every request, so a ban or demotion takes effect at once, and
 * so is the user's session version, so signing out ends every copy of the cookie.
 */
export interface SessionPayload {
  userId: number
  issuedAt: number
  /** users.session_version when issued: raising that column ends the session (absent means 0). */
  version?: number
}

export const SESSION_COOKIE = 'session'
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600

export class SessionCipher {
  private readonly key: Buffer

  constructor(secret: string) {
    this.key = createHash('sha256').update(`one-api-session:${secret}`).digest()
  }

  seal(payload: SessionPayload): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const encrypted = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url')
  }

  open(value: string | undefined): SessionPayload | undefined {
    if (!value || value.length > 4096) return undefined
    try {
      const raw = Buffer.from(value, 'base64url')
      if (raw.length < 29) return undefined
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
      const payload = JSON.parse(json) as SessionPayload
      if (!Number.isInteger(payload.userId)) return undefined
      if (Date.now() / 1000 - payload.issuedAt > SESSION_MAX_AGE_SECONDS) return undefined
      return payload
    } catch {
      return undefined
    }
  }
}
