import type { FastifyRequest } from 'fastify'

export const CROSS_SITE_MESSAGE =
  'Refused: this request was sent by another site. Use the console of this server, or an access token (Authorization header) from scripts'

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Whether a call changes something: any method but GET/HEAD/OPTIONS, and GET routes that say so. */
export function changesState(request: FastifyRequest): boolean {
  return !READ_ONLY_METHODS.has(request.method) || request.routeOptions.config?.changesState === true
}

/**
 * Whether the browser says the request comes from a page of another origin. `Sec-Fetch-Site` is
 * believed first: only `same-origin` and `none` (typed in the address bar) pass, since `same-site`
 * includes every port and subdomain of the host. Browsers without it send `Origin` on such
 * requests, which must name this host. Without either header the caller is not a browser
 * (curl, scripts, one-api's own tools) and passes: it cannot carry a victim's cookie.
 */
export function comesFromAnotherSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site']
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none'
  const origin = request.headers.origin
  if (typeof origin !== 'string' || origin === '') return false
  try {
    return new URL(origin).host !== request.host
  } catch {
    // `Origin: null` (a sandboxed frame, a redirect across sites) names no site at all.
    return true
  }
}
