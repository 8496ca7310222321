import { LogType } from '@one-api/contracts'
import { describeRatios } from '../../billing/pricing/quota.ts'
import type { ResolvedPricing } from '../../billing/pricing/resolve-pricing.ts'
import type { Charge } from '../../billing/request-cost.ts'
import type { NewLog } from '../../db/schema.ts'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import { clientApiNote } from './client-api.ts'
import { elapsedMilliseconds, type RelayState } from './relay-state.ts'

/**
 * The ratio line of each resolved price, made once: formatting three ratios costs about a
 * microsecond, on every request otherwise. Resolved prices are shared objects, kept for as long as
 * the ratio tables do not change (resolve-pricing.ts), so the line lives exactly as long as they do.
 */
const ratioLines = new WeakMap<ResolvedPricing, { text: string; other: string }>()

function ratioLine(pricing: ResolvedPricing, textMode: boolean): string {
  let lines = ratioLines.get(pricing)
  if (!lines) {
    lines = {
      text: describeRatios(pricing.modelRatio, pricing.groupRatio, pricing.completionRatio),
      other: describeRatios(pricing.modelRatio, pricing.groupRatio),
    }
    ratioLines.set(pricing, lines)
  }
  return textMode ? lines.text : lines.other
}

/**
 * The consume log row (type 2) of one billed request. Its model is the one billed, `billedModel`:
 * the channel's model_mapping applied to the requested one (as one-api logs it), so the price in
 * the ratio line, the per-model filters and totals are the model's that was used and paid for; a
 * mapped request says what was asked for in its content.
 */
export function consumeLog(
  state: RelayState,
  channel: RoutedChannel,
  pricing: ResolvedPricing,
  billedModel: string,
  charge: Charge,
  notes: string[],
  streamed: boolean,
): NewLog {
  const { caller } = state
  // Images and transcriptions billed by their reported output tokens used the completion ratio too.
  const textMode = state.mode === 'chat' || state.mode === 'completions' || charge.completionTokens > 0
  let content = ratioLine(pricing, textMode)
  if (billedModel !== state.facts.model)
    content += `; requested as ${state.facts.model}, mapped by the channel`
  if (charge.estimated) content += '; tokens counted locally where the upstream reported none'
  const api = clientApiNote(state.clientApi)
  if (api) content += `; ${api}`
  for (const note of notes) content += `; ${note}`
  return {
    user_id: caller.user.id,
    created_at: Math.floor(Date.now() / 1000),
    type: LogType.consume,
    content,
    username: caller.user.username,
    token_name: caller.token.name,
    model_name: billedModel,
    quota: charge.quota,
    prompt_tokens: charge.promptTokens,
    completion_tokens: charge.completionTokens,
    channel_id: channel.id,
    request_id: state.requestId,
    elapsed_time: elapsedMilliseconds(state),
    is_stream: streamed,
    system_prompt_reset: Boolean(channel.systemPrompt) && state.mode === 'chat',
    ip: state.clientIp,
  }
}
