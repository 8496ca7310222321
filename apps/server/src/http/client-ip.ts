import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import type { Config } from '../config/env.ts'

/**
 * The client address of a raw request, by the same TRUST_PROXY rules Fastify applies to its own
 * routes (the relay front serves /v1 without Fastify): X-Forwarded-For is believed only from
 * trusted proxies.
 */
export function clientIpResolver(trustProxy: Config['TRUST_PROXY']): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket.remoteAddress ?? ''
  const trusted = trustProxy === true ? () => true : proxyAddr.compile(trustProxy)
  return (request) => {
    const addresses = proxyAddr.all(request, trusted)
    return addresses[addresses.length - 1] ?? request.socket.remoteAddress ?? ''
  }
}
