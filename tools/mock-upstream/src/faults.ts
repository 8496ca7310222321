/**
 * Per-request behaviour controls ("faults") of the mock upstream. Three sources, merged in this
 * order (later wins):
 *  1. rules registered through POST /__mock/faults (or `addFault`), matched on model / key / path;
 *  2. directives appended to the model name: `gpt-4o-mini+status=429+delay-ms=100`;
 *  3. request headers: `x-mock-status: 429`, `x-mock-delay-ms: 100`, ...
 * A gateway forwards neither arbitrary headers nor (usually) control calls for its clients, so relay
 * tests use 1 or 2; direct tests may use any.
 */
import type { IncomingHttpHeaders } from 'node:http'

export interface FaultPlan {
  /** Reply with this HTTP status and an OpenAI error body. */
  status?: number
  /**
   * Custom error body (string or JSON) instead of the standard one for `status`; with a status
   * below 400 (or none: 200), the whole JSON reply, as a provider answering success oddly would.
   */
  body?: unknown
  /** Wait this long before sending response headers. */
  delayMs?: number
  /** Wait this long between stream events. */
  chunkDelayMs?: number
  /** Destroy the socket after this many stream events, without [DONE]. */
  cutAfterChunks?: number
  /** Report no usage: none in JSON replies, no usage chunk in streams. */
  noUsage?: boolean
  /** Number of generated content pieces (= completion_tokens). */
  chunks?: number
  /** Streams: answer 200 with one error event and [DONE], as providers do when they fail after the headers. */
  streamError?: boolean
  /**
   * Streams: send these payloads instead of the answer, each as one `data:` event, then [DONE] (a
   * provider's own events, such as an error in its own shape). Rules only.
   */
  events?: unknown[]
  /** Streams: send this many events of the answer first, then the error event and [DONE]. */
  streamErrorAfter?: number
  /** Streams: keep the body open this long after the last event before ending it. */
  holdOpenMs?: number
  /** Streams: send this many `: keep-alive` comments first, each followed by `chunkDelayMs` (a queued request). */
  keepAlives?: number
  /** Override prompt_tokens. */
  promptTokens?: number
  /** Report this many of the prompt tokens as read from the prompt cache (at most all of them). */
  cachedTokens?: number
  /** Anthropic: report N of the prompt tokens as written to the prompt cache (cache_creation_input_tokens). */
  cacheWriteTokens?: number
  /** Images: answer with this many images whatever `n` asked (a provider making fewer than asked). */
  images?: number
}

export interface FaultRule extends FaultPlan {
  match?: { model?: string; keyContains?: string; path?: string }
  /** Apply this many times, then forget the rule (default: until cleared). */
  times?: number
}

/** Directive keys, shared by model suffixes and `x-mock-<key>` headers. */
const DIRECTIVES: Record<string, keyof FaultPlan> = {
  status: 'status',
  'delay-ms': 'delayMs',
  'chunk-delay-ms': 'chunkDelayMs',
  'cut-after': 'cutAfterChunks',
  'no-usage': 'noUsage',
  'stream-error': 'streamError',
  'error-after': 'streamErrorAfter',
  'hold-open-ms': 'holdOpenMs',
  keepalives: 'keepAlives',
  chunks: 'chunks',
  'prompt-tokens': 'promptTokens',
  'cached-tokens': 'cachedTokens',
  'cache-write-tokens': 'cacheWriteTokens',
  images: 'images',
}

const MAX_CHUNKS = 10_000_000

function setDirective(plan: FaultPlan, key: string, raw: string): void {
  const field = DIRECTIVES[key]
  if (!field) return
  if (field === 'noUsage' || field === 'streamError') {
    plan[field] = raw !== 'false' && raw !== '0'
    return
  }
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0 || value > MAX_CHUNKS) return
  ;(plan as Record<string, number>)[field] = value
}

/** Directives after the first '+' of the model name. */
export function faultsFromModel(model: string): FaultPlan {
  const plan: FaultPlan = {}
  const parts = model.split('+')
  for (const directive of parts.slice(1)) {
    const [key, value = 'true'] = directive.split('=', 2)
    setDirective(plan, key.trim().toLowerCase(), value.trim())
  }
  return plan
}

export function faultsFromHeaders(headers: IncomingHttpHeaders): FaultPlan {
  const plan: FaultPlan = {}
  for (const key of Object.keys(DIRECTIVES)) {
    const value = headers[`x-mock-${key}`]
    if (typeof value === 'string') setDirective(plan, key, value)
  }
  return plan
}

export interface RuleContext {
  model: string
  authorization: string
  path: string
}

const PLAN_FIELDS = Object.values(DIRECTIVES).concat('body', 'events')

export class FaultRules {
  private rules: FaultRule[] = []

  add(rule: FaultRule): void {
    this.rules.push({ ...rule })
  }

  clear(): void {
    this.rules = []
  }

  list(): readonly FaultRule[] {
    return this.rules
  }

  /** The first matching rule's plan; a rule with `times` is consumed. */
  take(context: RuleContext): FaultPlan {
    const index = this.rules.findIndex((rule) => matches(rule, context))
    if (index === -1) return {}
    const rule = this.rules[index]
    if (rule.times !== undefined) {
      rule.times -= 1
      if (rule.times <= 0) this.rules.splice(index, 1)
    }
    const plan: Record<string, unknown> = {}
    for (const field of PLAN_FIELDS)
      if (rule[field as keyof FaultRule] !== undefined) plan[field] = rule[field as keyof FaultRule]
    return plan as FaultPlan
  }
}

function matches(rule: FaultRule, context: RuleContext): boolean {
  const match = rule.match ?? {}
  if (match.model !== undefined && match.model !== context.model) return false
  if (match.keyContains !== undefined && !context.authorization.includes(match.keyContains)) return false
  if (match.path !== undefined && !context.path.includes(match.path)) return false
  return true
}

/** Validates a rule posted to the control endpoint; returns an error message or the rule. */
export function parseFaultRule(input: unknown): FaultRule | string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'rule must be an object'
  const rule = input as Record<string, unknown>
  for (const field of [
    'status',
    'delayMs',
    'chunkDelayMs',
    'cutAfterChunks',
    'streamErrorAfter',
    'holdOpenMs',
    'keepAlives',
    'chunks',
    'promptTokens',
    'cachedTokens',
    'cacheWriteTokens',
    'images',
    'times',
  ]) {
    const value = rule[field]
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 0)) {
      return `${field} must be a non-negative integer`
    }
  }
  if (rule.noUsage !== undefined && typeof rule.noUsage !== 'boolean') return 'noUsage must be a boolean'
  if (rule.match !== undefined && (typeof rule.match !== 'object' || rule.match === null))
    return 'match must be an object'
  return rule as FaultRule
}
