import { ChannelType, channelTypeInfo } from '@one-api/contracts/channel-types'
import { request } from 'undici'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import { redactChannelKey } from './redact-key.ts'

/**
 * Balance queries for the channel types that have one. Each returns the amount
 * in the provider's currency; types without a balance API throw UnsupportedBalance.
 */
export class UnsupportedBalance extends Error {
  constructor() {
    super('not supported')
  }
}

type Fetcher = (channel: RoutedChannel, base: string) => Promise<number>

const getJson = async (url: string, headers: Record<string, string>): Promise<Record<string, any>> => {
  const response = await request(url, { headers, headersTimeout: 10_000, bodyTimeout: 10_000 })
  const text = await response.body.text()
  if (response.statusCode >= 300)
    throw new Error(`balance query answered ${response.statusCode}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as Record<string, any>
}
const bearer = (channel: RoutedChannel) => ({ authorization: `Bearer ${channel.key}` })

/** A provider's amount as a number; a missing or unreadable one is an error, not a balance of 0. */
const finiteAmount = (value: unknown): number => {
  const readable = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')
  const amount = readable ? Number(value) : Number.NaN
  if (!Number.isFinite(amount)) throw new Error(`balance query answered no amount (${String(value)})`)
  return amount
}

const openAi: Fetcher = async (channel, base) => {
  const subscription = await getJson(`${base}/v1/dashboard/billing/subscription`, bearer(channel))
  const limit = finiteAmount(subscription.hard_limit_usd)
  const now = new Date()
  const start = subscription.has_payment_method
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
    : new Date(now.getTime() - 100 * 86_400_000)
  const day = (date: Date) => date.toISOString().slice(0, 10)
  const usage = await getJson(
    `${base}/v1/dashboard/billing/usage?start_date=${day(start)}&end_date=${day(now)}`,
    bearer(channel),
  )
  // total_usage is in cents.
  return limit - finiteAmount(usage.total_usage) / 100
}
const creditGrants: Fetcher = async (channel, base) =>
  finiteAmount((await getJson(`${base}/dashboard/billing/credit_grants`, bearer(channel))).total_available)
const deepSeek: Fetcher = async (channel, base) => {
  const infos = (await getJson(`${base}/user/balance`, bearer(channel))).balance_infos
  const list = Array.isArray(infos) ? (infos as Array<Record<string, unknown>>) : []
  const entry = list.find((info) => info?.currency === 'CNY') ?? list[0]
  return finiteAmount(entry?.total_balance)
}
const openRouter: Fetcher = async (channel, base) => {
  const data = (await getJson(`${base}/api/v1/credits`, bearer(channel))).data
  return finiteAmount(data?.total_credits) - finiteAmount(data?.total_usage)
}
// Moonshot's balance in yuan: vouchers and cash together.
// https://platform.moonshot.cn/docs/api/balance
const moonshot: Fetcher = async (channel, base) =>
  finiteAmount((await getJson(`${base}/v1/users/me/balance`, bearer(channel))).data?.available_balance)
const siliconFlow: Fetcher = async (channel, base) =>
  finiteAmount((await getJson(`${base}/v1/user/info`, bearer(channel))).data?.totalBalance)

// OpenAI-SB takes the key in the query string and answers the credit as a decimal string, in its
// own unit (the console shows it divided by 10,000, in yuan).
const openAiSb: Fetcher = async (channel, base) => {
  const answer = await getJson(`${base}/sb-api/user/status?api_key=${encodeURIComponent(channel.key)}`, {})
  if (!answer.data) throw new Error(`balance query failed: ${String(answer.msg ?? 'no data')}`)
  return finiteAmount(answer.data.credit)
}
const aiProxy: Fetcher = async (channel, base) => {
  const answer = await getJson(`${base}/api/report/getUserOverview`, { 'api-key': channel.key })
  if (answer.success !== true) {
    throw new Error(`balance query failed: code ${answer.error_code}, ${String(answer.message ?? '')}`)
  }
  return finiteAmount(answer.data?.totalPoints)
}

const FETCHERS: Record<number, [Fetcher, string]> = {
  [ChannelType.openAI]: [openAi, 'https://api.openai.com'],
  [ChannelType.custom]: [openAi, ''],
  [ChannelType.closeAi]: [creditGrants, 'https://api.closeai-proxy.xyz'],
  [ChannelType.openAiSb]: [openAiSb, 'https://api.openai-sb.com'],
  [ChannelType.aiProxy]: [aiProxy, 'https://aiproxy.io'],
  [ChannelType.api2gpt]: [creditGrants, 'https://api.api2gpt.com'],
  [ChannelType.aigc2d]: [creditGrants, 'https://api.aigc2d.com'],
  [ChannelType.openRouter]: [openRouter, 'https://openrouter.ai'],
  [ChannelType.deepSeek]: [deepSeek, 'https://api.deepseek.com'],
  [ChannelType.siliconFlow]: [siliconFlow, 'https://api.siliconflow.cn'],
  /** Moonshot. */
  25: [moonshot, 'https://api.moonshot.cn'],
}

export function hasBalanceQuery(type: number): boolean {
  return Object.hasOwn(FETCHERS, type)
}

export async function fetchBalance(channel: RoutedChannel): Promise<number> {
  const entry = FETCHERS[channel.type]
  if (!entry) throw new UnsupportedBalance()
  const base = balanceBase(channel)
  if (!base) throw new Error('the channel has no base URL to query')
  try {
    return await entry[0](channel, base)
  } catch (error) {
    // An answer quoted in the error may quote the key too (see redact-key.ts).
    if (error instanceof Error) error.message = redactChannelKey(error.message, channel.key)
    throw error
  }
}

/** Where a channel's balance is asked: its own base URL, or the provider's balance host. */
export function balanceBase(channel: Pick<RoutedChannel, 'type' | 'baseUrl'>): string {
  const providerBase = FETCHERS[channel.type]?.[1] ?? ''
  // A channel on the provider's own relay host asks the provider's balance host (AI Proxy relays
  // on api.aiproxy.io but reports on aiproxy.io); any other base URL (a mirror) is asked itself.
  const ownBase = channel.baseUrl === channelTypeInfo(channel.type)?.defaultBaseUrl ? '' : channel.baseUrl
  // OpenRouter's base URL for the relay ends in /api; its credits endpoint sits beside it.
  return (ownBase || providerBase).replace(/\/api$/, '').replace(/\/v1$/, '')
}
