/**
 * The credential exchange (Adaptor.credentialExchange) against a real token server over HTTP: the
 * token is fetched once and cached per channel until shortly before it expires, concurrent
 * requests share one exchange, a refused cached token is renewed and the call retried once, and
 * a token endpoint's refusal disables the channel while its 5xx only moves the request on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type {
  Adaptor,
  ChannelCredentials,
  CredentialExchange,
  UpstreamError,
  UpstreamResponse,
} from '@one-api/providers'
import {
  credentialCacheKey,
  credentialExchangeError,
  localError,
  unusableChannelKey,
} from '@one-api/providers'
import { describe, expect, it } from 'vitest'
import { httpServer, useUpstreamFixtures } from '../../testing/upstream-servers.ts'
import { type CredentialSource, withChannelCredentials } from './channel-credentials.ts'
import { CredentialCache } from './credential-cache.ts'

const { serve, clientWith } = useUpstreamFixtures()

/** A token endpoint: `answer` decides each reply; every request's body is recorded. */
async function tokenServer(answer: (count: number, response: ServerResponse) => void) {
  const bodies: string[] = []
  const server = await serve(
    httpServer((request: IncomingMessage, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        bodies.push(body)
        answer(bodies.length, response)
      })
    }),
  )
  return { url: `${server.origin}/token`, bodies }
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

/** An adaptor whose upstream takes `access_token`s issued for `client_secret`s, as OAuth's do. */
function exchangingAdaptor(tokenUrl: string): Adaptor {
  return {
    name: 'test-exchange',
    credentialExchange(channel: ChannelCredentials): CredentialExchange | UpstreamError {
      if (!channel.key.startsWith('secret-')) return unusableChannelKey('the key is not a secret')
      return {
        kind: 'exchange',
        cacheKey: credentialCacheKey(channel.type, channel.key),
        request: {
          kind: 'request',
          url: tokenUrl,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `client_secret=${channel.key}`,
          bodyRewritten: true,
          dropUsageChunk: false,
        },
        parse(response: UpstreamResponse) {
          if (response.status !== 200) return credentialExchangeError(response)
          const answer = JSON.parse(response.body.toString()) as { access_token: string; expires_in: number }
          return {
            kind: 'credential',
            token: answer.access_token,
            expiresAt: Math.floor(Date.now() / 1000) + answer.expires_in,
          }
        },
      }
    },
    buildRequest: () => localError(500, 'unused', 'unused'),
    parseResponse: () => localError(500, 'unused', 'unused'),
    createStreamTransformer: () => {
      throw new Error('unused')
    },
  }
}

const channel = (id: number, key = 'secret-a'): CredentialSource => ({ id, type: 99, key })
type Outcome = { kind: 'ok'; token: string } | { kind: 'failed'; error: UpstreamError }
/** The upstream call of the test: it records the token it was given and answers `decide(token)`. */
function upstream(
  decide: (token: string | undefined) => Outcome = (token) => ({ kind: 'ok', token: token! }),
) {
  const seen: Array<string | undefined> = []
  const call = async (credentials: ChannelCredentials): Promise<Outcome> => {
    seen.push(credentials.accessToken)
    return decide(credentials.accessToken)
  }
  return { seen, call }
}
const tokenRefused = localError(401, 'invalid_token', 'token expired', { retryable: true })
const refusal: UpstreamError = { ...tokenRefused, disableChannel: true }

describe('credential exchange in the pipeline', () => {
  it('exchanges once, then serves every call of the channel from the cache', async () => {
    const server = await tokenServer((count, response) =>
      json(response, 200, { access_token: `token-${count}`, expires_in: 3600 }),
    )
    const cache = clientWith().credentials
    const adaptor = exchangingAdaptor(server.url)
    const { seen, call } = upstream()
    for (let index = 0; index < 3; index++) await withChannelCredentials(cache, adaptor, channel(1), call)
    expect(seen).toEqual(['token-1', 'token-1', 'token-1'])
    expect(server.bodies).toEqual(['client_secret=secret-a'])
    // Another channel, or the same channel with a new key, has a token of its own.
    await withChannelCredentials(cache, adaptor, channel(2), call)
    await withChannelCredentials(cache, adaptor, channel(1, 'secret-b'), call)
    expect(seen.slice(3)).toEqual(['token-2', 'token-3'])
  })

  it('lets concurrent requests share one exchange', async () => {
    const server = await tokenServer((count, response) =>
      setTimeout(() => json(response, 200, { access_token: `token-${count}`, expires_in: 3600 }), 50),
    )
    const cache = clientWith().credentials
    const { seen, call } = upstream()
    const adaptor = exchangingAdaptor(server.url)
    await Promise.all(
      Array.from({ length: 5 }, () => withChannelCredentials(cache, adaptor, channel(1), call)),
    )
    expect(server.bodies).toHaveLength(1)
    expect(new Set(seen)).toEqual(new Set(['token-1']))
  })

  it('renews a token before it expires', async () => {
    let now = 1_000_000
    const server = await tokenServer((count, response) =>
      json(response, 200, { access_token: `token-${count}`, expires_in: 3600 }),
    )
    const client = clientWith()
    const cache = new CredentialCache(
      (request) => client.send(request, { whole: true }),
      () => now,
    )
    const adaptor = exchangingAdaptor(server.url)
    const exchange = adaptor.credentialExchange!({ type: 99, key: 'secret-a' }, 0) as CredentialExchange
    // The test's parse dates the token by the wall clock: the cache's clock is moved around it.
    now = Date.now() / 1000
    expect(await cache.token(1, exchange)).toMatchObject({ token: 'token-1', fresh: true })
    now += 3600 - 301
    expect(await cache.token(1, exchange)).toMatchObject({ token: 'token-1', fresh: false })
    now += 2
    expect(await cache.token(1, exchange)).toMatchObject({ token: 'token-2', fresh: true })
  })

  it('drops a cached token the upstream refuses and retries once with a new one', async () => {
    const server = await tokenServer((count, response) =>
      json(response, 200, { access_token: `token-${count}`, expires_in: 3600 }),
    )
    const cache = clientWith().credentials
    const adaptor = exchangingAdaptor(server.url)
    await withChannelCredentials(cache, adaptor, channel(1), upstream().call)
    // token-1 is revoked upstream.
    const { seen, call } = upstream((token) =>
      token === 'token-1' ? { kind: 'failed', error: refusal } : { kind: 'ok', token: token! },
    )
    expect(await withChannelCredentials(cache, adaptor, channel(1), call)).toEqual({
      kind: 'ok',
      token: 'token-2',
    })
    expect(seen).toEqual(['token-1', 'token-2'])
    // A token just issued that is refused is not exchanged again: the channel's key is at fault.
    const refusing = upstream(() => ({ kind: 'failed', error: refusal }))
    await withChannelCredentials(cache, adaptor, channel(3), refusing.call)
    expect(refusing.seen).toEqual(['token-3'])
    expect(server.bodies).toHaveLength(3)
  })

  it('does not retry an error that says nothing about the token', async () => {
    const server = await tokenServer((count, response) =>
      json(response, 200, { access_token: `token-${count}`, expires_in: 3600 }),
    )
    const cache = clientWith().credentials
    const adaptor = exchangingAdaptor(server.url)
    await withChannelCredentials(cache, adaptor, channel(1), upstream().call)
    const overloaded = localError(429, 'rate_limited', 'slow down', { retryable: true })
    const { seen, call } = upstream(() => ({ kind: 'failed', error: overloaded }))
    expect(await withChannelCredentials(cache, adaptor, channel(1), call)).toEqual({
      kind: 'failed',
      error: overloaded,
    })
    expect(seen).toEqual(['token-1'])
  })

  it('disables the channel when the token endpoint refuses its credentials, without calling the upstream', async () => {
    const server = await tokenServer((_count, response) =>
      json(response, 400, { error: 'invalid_client', error_description: 'Client authentication failed' }),
    )
    const { seen, call } = upstream()
    const outcome = await withChannelCredentials(
      clientWith().credentials,
      exchangingAdaptor(server.url),
      channel(1),
      call,
    )
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: { status: 401, code: 'invalid_client', disableChannel: true, retryable: true },
    })
    expect((outcome as { error: UpstreamError }).error.message).not.toContain('secret-a')
    expect(seen).toEqual([])
  })

  it('moves on without disabling when the token endpoint fails (5xx) or is out of reach, and caches no failure', async () => {
    const server = await tokenServer((count, response) =>
      count === 1
        ? json(response, 503, { error: 'unavailable' })
        : json(response, 200, { access_token: 'late', expires_in: 60 }),
    )
    const cache = clientWith().credentials
    const { seen, call } = upstream()
    const adaptor = exchangingAdaptor(server.url)
    expect(await withChannelCredentials(cache, adaptor, channel(1), call)).toMatchObject({
      kind: 'failed',
      error: { status: 503, disableChannel: false, retryable: true },
    })
    expect(await withChannelCredentials(cache, adaptor, channel(1), call)).toEqual({
      kind: 'ok',
      token: 'late',
    })
    const unreachable = exchangingAdaptor('http://127.0.0.1:1/token')
    expect(await withChannelCredentials(cache, unreachable, channel(2), call)).toMatchObject({
      kind: 'failed',
      error: { status: 502, code: 'do_request_failed', disableChannel: false, retryable: true },
    })
    expect(seen).toEqual(['late'])
  })

  it('refuses a key of the wrong form before any call, disabling the channel', async () => {
    const { seen, call } = upstream()
    const outcome = await withChannelCredentials(
      clientWith().credentials,
      exchangingAdaptor('http://127.0.0.1:1/token'),
      channel(1, 'not-a-secret'),
      call,
    )
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: { disableChannel: true, code: 'invalid_channel_key' },
    })
    expect(seen).toEqual([])
  })
})
