/**
 * Cloudflare's API authentication as Workers AI checks it: a known API token after Bearer, for the
 * account named in the path; else 401 with Cloudflare's envelope (code 10000).
 * https://developers.cloudflare.com/fundamentals/api/reference/permissions/
 */
import type { IncomingHttpHeaders } from 'node:http'
import { CLOUDFLARE_TOKENS } from './credentials.ts'
import type { Refusal } from './zhipu.ts'

export const CLOUDFLARE_PATH = /^\/client\/v4\/accounts\/([^/]+)\/ai\/v1\/(chat\/completions|embeddings)$/

export function refuseCloudflareAuth(headers: IncomingHttpHeaders, pathname: string): Refusal | undefined {
  const account = CLOUDFLARE_PATH.exec(pathname)?.[1]
  const token = headers.authorization?.replace(/^Bearer\s+/i, '') ?? ''
  if (account !== undefined && CLOUDFLARE_TOKENS[token] === account) return undefined
  return {
    status: 401,
    body: JSON.stringify({
      success: false,
      errors: [{ code: 10000, message: 'Authentication error' }],
      messages: [],
      result: null,
    }),
  }
}
