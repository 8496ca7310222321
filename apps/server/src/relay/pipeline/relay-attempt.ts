import { once } from 'node:events'
import type { Adaptor, RelayRequest, UpstreamError, UpstreamRequest } from '@one-api/providers'
import { isUpstreamError, transportError } from '@one-api/providers'
import type { FastifyReply } from 'fastify'
import type { Reservation } from '../../billing/ledger/ledger.ts'
import type { ResolvedPricing } from '../../billing/pricing/resolve-pricing.ts'
import { type Charge, type CostInput, chargeFor } from '../../billing/request-cost.ts'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import type { RelayState } from './relay-state.ts'
import type { UpstreamClient } from './upstream-client.ts'

export interface AttemptInput {
  state: RelayState
  channel: RoutedChannel
  adaptor: Adaptor
  relayRequest: RelayRequest
  cost: CostInput
  pricing: ResolvedPricing
  promptEstimate: number
  reservation: Reservation
}

/** `served`: the client got an answer (billing is the caller's job); `failed`: nothing was sent yet. */
export type AttemptOutcome =
  | { kind: 'served'; charge: Charge; notes: string[] }
  | { kind: 'failed'; error: UpstreamError }

/** One try against one channel. Never retries itself; never writes to the client on failure. */
export async function runAttempt(
  upstream: UpstreamClient,
  reply: FastifyReply,
  input: AttemptInput,
): Promise<AttemptOutcome> {
  const { state, channel, adaptor, relayRequest } = input
  const built = adaptor.buildRequest(relayRequest, {
    type: channel.type,
    key: channel.key,
    baseUrl: channel.baseUrl,
    config: channel.config,
    other: channel.other,
  })
  if (isUpstreamError(built)) return { kind: 'failed', error: built }
  const sentAt = process.hrtime.bigint()
  let response: Awaited<ReturnType<UpstreamClient['send']>>
  try {
    response = await upstream.send({ ...built, signal: state.clientGone.signal })
  } catch (error) {
    state.upstreamNanos += process.hrtime.bigint() - sentAt
    return { kind: 'failed', error: transportError(error) }
  }
  const contentType = String(response.headers['content-type'] ?? '')
  if (state.facts.stream && response.statusCode < 300 && contentType.includes('text/event-stream')) {
    return streamResponse(reply, input, built, response, sentAt)
  }
  let body: Buffer
  try {
    body = Buffer.from(await response.body.arrayBuffer())
  } catch (error) {
    state.upstreamNanos += process.hrtime.bigint() - sentAt
    return { kind: 'failed', error: transportError(error) }
  }
  state.upstreamNanos += process.hrtime.bigint() - sentAt
  const parsed = adaptor.parseResponse(
    { status: response.statusCode, headers: response.headers, body },
    relayRequest,
  )
  if (isUpstreamError(parsed)) return { kind: 'failed', error: parsed }
  const charge = chargeFor(input.cost, input.promptEstimate, parsed.usage, parsed.completionText)
  reply
    .code(response.statusCode)
    .header('content-type', contentType || 'application/json')
    .send(parsed.body)
  return { kind: 'served', charge, notes: [] }
}

async function streamResponse(
  reply: FastifyReply,
  input: AttemptInput,
  built: UpstreamRequest,
  response: Awaited<ReturnType<UpstreamClient['send']>>,
  sentAt: bigint,
): Promise<AttemptOutcome> {
  const { state, adaptor, relayRequest } = input
  const transformer = adaptor.createStreamTransformer(relayRequest, built)
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-oneapi-request-id': state.requestId,
  })
  const notes: string[] = []
  try {
    for await (const chunk of response.body) {
      const text = transformer.push(chunk as Buffer)
      if (text && !raw.write(text)) await once(raw, 'drain', { signal: state.clientGone.signal })
    }
  } catch {
    // The client left (the upstream call was aborted) or the upstream cut the stream.
    notes.push(
      state.clientGone.signal.aborted ? 'client disconnected before the end' : 'upstream stream broke off',
    )
  }
  state.upstreamNanos += process.hrtime.bigint() - sentAt
  if (!transformer.upstreamCompleted && notes.length === 0) notes.push('upstream ended without [DONE]')
  if (transformer.streamError) notes.push(`upstream error in stream: ${transformer.streamError.message}`)
  // finish() always runs: it flushes a last event (and its usage) that had no trailing blank line.
  const tail = transformer.finish()
  if (!raw.destroyed) raw.end(tail)
  const charge = chargeFor(
    input.cost,
    input.promptEstimate,
    transformer.usage,
    transformer.completionText,
    transformer.completionTextLength,
  )
  return { kind: 'served', charge, notes }
}
