import { LogType } from '@one-api/contracts'
import { describeRatios } from '../../billing/pricing/quota.ts'
import type { ResolvedPricing } from '../../billing/pricing/resolve-pricing.ts'
import type { Charge } from '../../billing/request-cost.ts'
import type { NewLog } from '../../db/repositories/logs-repository.ts'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import { elapsedMilliseconds, type RelayState } from './relay-state.ts'

/** The consume log row (type 2) of one billed request. */
export function consumeLog(
  state: RelayState,
  channel: RoutedChannel,
  pricing: ResolvedPricing,
  charge: Charge,
  notes: string[] = [],
): NewLog {
  const { caller } = state
  const textModes = state.mode === 'chat' || state.mode === 'completions'
  let content = describeRatios(
    pricing.modelRatio,
    pricing.groupRatio,
    textModes ? pricing.completionRatio : undefined,
  )
  if (charge.estimated) content += '; tokens counted locally (the upstream reported no usage)'
  for (const note of notes) content += `; ${note}`
  return {
    user_id: caller.user.id,
    created_at: Math.floor(Date.now() / 1000),
    type: LogType.consume,
    content,
    username: caller.user.username,
    token_name: caller.token.name,
    model_name: state.facts.model,
    quota: charge.quota,
    prompt_tokens: charge.promptTokens,
    completion_tokens: charge.completionTokens,
    channel_id: channel.id,
    request_id: state.requestId,
    elapsed_time: elapsedMilliseconds(state),
    is_stream: state.facts.stream,
    system_prompt_reset: Boolean(channel.systemPrompt) && state.mode === 'chat',
    ip: state.clientIp,
  }
}
