/**
 * Which Spark version (URL path) and `domain` a model goes to, as one-api decides: the version
 * from the model name (its own table, else the text after the first '-'), else the channel's
 * `api_version` config (the `other` column in old databases), else v1.1.
 * https://www.xfyun.cn/doc/spark/Web.html
 */
import type { ChannelCredentials } from '../adaptor.ts'

const MODEL_VERSIONS: Record<string, string> = {
  'Spark-Lite': 'v1.1',
  'Spark-Pro': 'v3.1',
  'Spark-Pro-128K': 'v3.1-128K',
  'Spark-Max': 'v3.5',
  'Spark-Max-32K': 'v3.5-32K',
  'Spark-4.0-Ultra': 'v4.0',
}

const DOMAINS: Record<string, string> = {
  'v1.1': 'lite',
  'v2.1': 'generalv2',
  'v3.1': 'generalv3',
  'v3.1-128K': 'pro-128k',
  'v3.5': 'generalv3.5',
  'v3.5-32K': 'max-32k',
  'v4.0': '4.0Ultra',
}

/** Versions served at a path of their own rather than `/{version}/chat`. */
const PATHS: Record<string, string> = { 'v3.1-128K': '/chat/pro-128k', 'v3.5-32K': '/chat/max-32k' }

export function sparkVersion(model: string, channel: ChannelCredentials): string {
  const named = MODEL_VERSIONS[model]
  if (named) return named
  const dash = model.indexOf('-')
  if (dash !== -1 && dash < model.length - 1) return model.slice(dash + 1)
  const configured = channel.config?.api_version
  if (typeof configured === 'string' && configured.trim() !== '') return configured.trim()
  const other = channel.other?.trim()
  return other || 'v1.1'
}

export const sparkDomain = (version: string): string => DOMAINS[version] ?? `general${version}`

export const sparkPath = (version: string): string => PATHS[version] ?? `/${version}/chat`
