import { ChannelStatus } from '@one-api/contracts'
import {
  type Adaptor,
  getAdaptor,
  type RelayMode,
  type RelayRequest,
  withSystemPrompt,
} from '@one-api/providers'
import type { AppContext } from '../../app-context.ts'
import { type ResolvedPricing, resolvePricing } from '../../billing/pricing/resolve-pricing.ts'
import { type CostInput, estimatePromptTokens, reservationFor } from '../../billing/request-cost.ts'
import { findChannelById } from '../../db/repositories/channels-repository.ts'
import { channelDisabled, channelNotFound } from '../auth/relay-error.ts'
import type { RelayServices } from '../relay-services.ts'
import { type RoutedChannel, toRoutedChannel } from '../routing/routed-channel.ts'
import type { AttemptInput, Tries } from './attempt-types.ts'
import { answerFailure } from './failure-answer.ts'
import { providerDefaults } from './provider-defaults.ts'
import { refundWithin, reserveQuota } from './quota-reservation.ts'
import { runAttempt } from './relay-attempt.ts'
import type { RelayState } from './relay-state.ts'
import { checkProviderLimits } from './request-limits.ts'
import { noteFailure, type ServeHooks, settleServed } from './settle.ts'

/** A channel this gateway can serve the request on: its adaptor and the price of the model billed. */
interface Usable {
  channel: RoutedChannel
  adaptor: Adaptor
  mappedModel: string
  pricing: ResolvedPricing
}

/**
 * Serves one authenticated request: up to 1 + RetryTimes attempts on different channels (the
 * pinned one alone when the key pins one), each one step after the other: pick a channel,
 * reserve its cost, attempt it, then settle the served answer or refund the failed attempt.
 * When no attempt serves, the failure is answered (failure-answer.ts).
 */
export async function serve(
  context: AppContext,
  services: RelayServices,
  state: RelayState,
  hooks: ServeHooks,
): Promise<void> {
  const { caller } = state
  const tries: Tries = { excluded: new Set(), lastErrorChannel: 0 }
  const attempts = caller.pinnedChannelId ? 1 : 1 + Math.max(0, context.options.number('RetryTimes'))
  // A channel this gateway cannot serve (no adaptor for its type, no price for its model) is
  // skipped without using up one of the request's attempts.
  for (let attempt = 0; attempt < attempts && !state.clientGone; ) {
    const channel = await pickChannel(context, services, state, tries.excluded)
    if (!channel) break
    const usable = usableChannel(context, state, channel, tries, hooks)
    if (!usable) continue
    attempt += 1
    const result = await attemptOn(context, services, state, usable, tries, hooks)
    if (result === 'served') return
    if (result === 'stop' || state.clientGone) break
  }
  answerFailure(services, state, tries)
}

/** The next channel to try: the pinned one, or the router's pick among those not tried yet. */
async function pickChannel(
  context: AppContext,
  services: RelayServices,
  state: RelayState,
  excluded: Set<number>,
): Promise<RoutedChannel | undefined> {
  const { caller, facts } = state
  const pinned = caller.pinnedChannelId
  if (pinned && excluded.has(pinned)) return undefined
  const channel = pinned
    ? (services.router.channel(pinned) ?? (await pinnedChannel(context, pinned)))
    : services.router.select(caller.user.group, facts.model, excluded)
  if (channel) excluded.add(channel.id)
  return channel
}

/** A pinned channel the routing index does not hold: read it to say why, or to use it anyway. */
async function pinnedChannel(context: AppContext, id: number): Promise<RoutedChannel> {
  const row = await findChannelById(context.db, id)
  if (!row) throw channelNotFound(id)
  if (row.status !== ChannelStatus.enabled) throw channelDisabled(id)
  return toRoutedChannel(row)
}

/** The channel with its adaptor and price, or undefined (noted in `tries`) when it has neither. */
function usableChannel(
  context: AppContext,
  state: RelayState,
  channel: RoutedChannel,
  tries: Tries,
  hooks: ServeHooks,
): Usable | undefined {
  const adaptor = getAdaptor(channel.type, state.clientApi, channel.config)
  if (!adaptor) {
    tries.unsupported = channel
    hooks.warnUnsupported(channel)
    return undefined
  }
  const { options } = context
  const mappedModel = channel.modelMapping[state.facts.model] || state.facts.model
  const pricing = resolvePricing(mappedModel, channel.type, state.caller.user.group, {
    modelRatios: options.ratios('ModelRatio'),
    completionRatios: options.ratios('CompletionRatio'),
    groupRatios: options.ratios('GroupRatio'),
  })
  if (!pricing) {
    tries.unpriced = mappedModel
    return undefined
  }
  return { channel, adaptor, mappedModel, pricing }
}

/**
 * One attempt: reserves its cost, calls the channel, then settles what it served or refunds what
 * it did not. 'retry' when another channel may serve the request.
 */
async function attemptOn(
  context: AppContext,
  services: RelayServices,
  state: RelayState,
  usable: Usable,
  tries: Tries,
  hooks: ServeHooks,
): Promise<'served' | 'retry' | 'stop'> {
  const prepared = prepareAttempt(context, state, usable)
  const ledgerFailed = (error: unknown, what: string) => hooks.ledgerFailed(error, what, state.requestId)
  const preConsumed = context.options.number('PreConsumedQuota')
  const amount = reservationFor(prepared.cost, prepared.promptEstimate, preConsumed)
  const reservation = await reserveQuota(services.ledger, state.caller, amount, ledgerFailed)
  const input: AttemptInput = { ...prepared, reservation }
  // Nobody is left to answer: no upstream call is made for it.
  if (state.clientGone) {
    await refundWithin(services.ledger, reservation, ledgerFailed)
    return 'stop'
  }
  // Counted once another channel is actually called (not when none was left, the reservation
  // was refused or the client left).
  if (tries.movingFrom) services.metrics.recordRetry(tries.movingFrom.channel, tries.movingFrom.model)
  tries.movingFrom = undefined
  let outcome: Awaited<ReturnType<typeof runAttempt>>
  try {
    outcome = await runAttempt(services.upstream, input)
  } catch (error) {
    // An unexpected failure must not keep the reservation: give it back before reporting.
    await refundWithin(services.ledger, input.reservation, ledgerFailed)
    throw error
  }
  if (outcome.kind === 'served') {
    await settleServed(context, services, input, outcome, hooks)
    return 'served'
  }
  await refundWithin(services.ledger, reservation, ledgerFailed)
  noteFailure(context, services, input, outcome.error, tries)
  return outcome.error.retryable ? 'retry' : 'stop'
}

/** What the attempt on `usable` sends and bills, before its reservation is taken. */
function prepareAttempt(
  context: AppContext,
  state: RelayState,
  usable: Usable,
): Omit<AttemptInput, 'reservation'> {
  const { facts } = state
  const { channel, adaptor, mappedModel, pricing } = usable
  checkProviderLimits(state.mode, mappedModel, facts.json)
  const cost: CostInput = {
    mode: state.mode,
    model: mappedModel,
    // What the upstream is sent, the channel's forced system prompt included, is what a local
    // count must count.
    json: promptAsSent(state.mode, facts.json, channel.systemPrompt),
    pricing,
    maxTokens: facts.maxTokens,
    approximate: context.options.boolean('ApproximateTokenEnabled'),
  }
  const relayRequest: RelayRequest = {
    mode: state.mode,
    clientApi: state.clientApi,
    native: state.native,
    receivedAt: Math.floor(Date.now() / 1000),
    path: state.path,
    body: state.body,
    json: facts.json,
    requestedModel: facts.model,
    mappedModel,
    stream: facts.stream,
    clientWantsUsage: facts.clientWantsUsage,
    systemPrompt: channel.systemPrompt || undefined,
    contentType: state.contentType,
    accept: state.accept,
  }
  return {
    state,
    channel,
    adaptor,
    relayRequest,
    defaults: providerDefaults(context.config),
    cost,
    pricing,
    promptEstimate: estimatePromptTokens(cost),
  }
}

/** The request's JSON as the upstream gets it: a chat's messages with the channel's system prompt. */
function promptAsSent(
  mode: RelayMode,
  json: Record<string, unknown> | undefined,
  systemPrompt: string,
): Record<string, unknown> | undefined {
  if (mode !== 'chat' || !systemPrompt || !json) return json
  return { ...json, messages: withSystemPrompt(json.messages, systemPrompt) }
}
