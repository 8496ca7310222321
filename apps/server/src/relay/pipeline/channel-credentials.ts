import type { Adaptor, ChannelCredentials, UpstreamError } from '@one-api/providers'
import { isUpstreamError } from '@one-api/providers'
import type { CredentialCache } from './credential-cache.ts'

/** The channel fields an adaptor reads, with the channel's id for the token cache. */
export interface CredentialSource extends ChannelCredentials {
  readonly id: number
}

type Failed = { kind: 'failed'; error: UpstreamError }

/**
 * Runs `call` with the channel's credentials: as they are, or, for an adaptor with a credential
 * exchange, with the token it yields (cached: credential-cache.ts). When the upstream refuses a
 * cached token (an error that would disable the channel: revoked, or expired early), the token is
 * dropped and `call` runs once more with a new one; a refusal of a token just issued stands.
 */
export async function withChannelCredentials<T extends { kind: string }>(
  cache: CredentialCache,
  adaptor: Adaptor,
  channel: CredentialSource,
  call: (credentials: ChannelCredentials) => Promise<T | Failed>,
): Promise<T | Failed> {
  const credentials: ChannelCredentials = {
    type: channel.type,
    key: channel.key,
    baseUrl: channel.baseUrl,
    config: channel.config,
    other: channel.other,
    defaults: channel.defaults,
  }
  if (!adaptor.credentialExchange) return call(credentials)
  const first = await tokenFor(cache, adaptor, channel, credentials)
  if (isUpstreamError(first)) return { kind: 'failed', error: first }
  const outcome = await call({ ...credentials, accessToken: first.token })
  if (!refused(outcome) || first.fresh) return outcome
  cache.drop(channel.id, first.exchange, first.token)
  const second = await tokenFor(cache, adaptor, channel, credentials)
  if (isUpstreamError(second)) return { kind: 'failed', error: second }
  return call({ ...credentials, accessToken: second.token })
}

async function tokenFor(
  cache: CredentialCache,
  adaptor: Adaptor,
  channel: CredentialSource,
  credentials: ChannelCredentials,
) {
  const exchange = adaptor.credentialExchange!(credentials, Math.floor(Date.now() / 1000))
  if (isUpstreamError(exchange)) return exchange
  const token = await cache.token(channel.id, exchange)
  return isUpstreamError(token) ? token : { ...token, exchange }
}

function refused(outcome: { kind: string }): boolean {
  return outcome.kind === 'failed' && (outcome as Failed).error.disableChannel
}
