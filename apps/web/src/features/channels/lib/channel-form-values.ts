import { type ChannelView, splitList } from '@one-api/contracts/channel'
import { ChannelType, DEFAULT_AZURE_API_VERSION } from '@one-api/contracts/channel-types'
import type { ChannelPayload } from '../api/save-channel.ts'

/**
 * Config fields some types keep in `config` (AWS, Vertex AI, Coze, Cloudflare, Gemini, Cohere,
 * Ollama, OpenAI-format types). The form edits them as text; `responses_api` is 'true' or ''.
 */
export const CONFIG_FIELDS = [
  'api_version',
  'region',
  'ak',
  'sk',
  'user_id',
  'vertex_ai_project_id',
  'vertex_ai_adc',
  'input_type',
  'num_ctx',
  'responses_api',
] as const
export type ConfigField = (typeof CONFIG_FIELDS)[number]

export interface ChannelFormValues {
  type: string
  name: string
  groups: string[]
  models: string[]
  model_mapping: string
  key: string
  batch: boolean
  base_url: string
  other: string
  config: Record<ConfigField, string>
  priority: number | string
  weight: number | string
}

export const MODEL_MAPPING_EXAMPLE = JSON.stringify(
  { 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4', 'gpt-4-32k-0314': 'gpt-4-32k' },
  null,
  2,
)

const emptyConfig = (): Record<ConfigField, string> => ({
  api_version: '',
  region: '',
  ak: '',
  sk: '',
  user_id: '',
  vertex_ai_project_id: '',
  vertex_ai_adc: '',
  input_type: '',
  num_ctx: '',
  responses_api: '',
})

export const newChannelValues = (): ChannelFormValues => ({
  type: String(ChannelType.openAI),
  name: '',
  groups: ['default'],
  models: [],
  model_mapping: '',
  key: '',
  batch: false,
  base_url: '',
  other: '',
  config: emptyConfig(),
  priority: 0,
  weight: 0,
})

/** A stored channel as the form edits it: the key is never shown (blank keeps it), nor are secrets. */
export function valuesOf(channel: ChannelView): ChannelFormValues {
  const config = emptyConfig()
  try {
    const parsed: unknown = channel.config ? JSON.parse(channel.config) : {}
    for (const field of CONFIG_FIELDS) {
      const value = (parsed as Record<string, unknown>)[field]
      if (typeof value === 'string' || typeof value === 'number') config[field] = String(value)
      if (value === true) config[field] = 'true'
    }
  } catch {
    // An unreadable config is shown empty.
  }
  return {
    ...newChannelValues(),
    type: String(channel.type),
    name: channel.name,
    groups: splitList(channel.group),
    models: splitList(channel.models),
    model_mapping: channel.model_mapping,
    base_url: channel.base_url,
    other: channel.other,
    config,
    priority: channel.priority,
    weight: channel.weight,
  }
}

const CONFIG_BY_TYPE: Partial<Record<number, readonly ConfigField[]>> = {
  [ChannelType.aws]: ['region', 'ak', 'sk'],
  [ChannelType.vertexAi]: ['region', 'vertex_ai_project_id', 'vertex_ai_adc'],
  [ChannelType.coze]: ['user_id'],
  [ChannelType.cloudflare]: ['user_id'],
  [ChannelType.gemini]: ['api_version'],
  35: ['input_type'], // Cohere
  [ChannelType.ollama]: ['num_ctx'],
}

/**
 * OpenAI-format types that may pass Responses API requests through (`responses_api`): OpenAI (1)
 * always does, and the types with their own chat paths (Azure, MiniMax, Doubao, Novita, Baidu V2,
 * Bailian) never do, so neither shows the switch.
 */
export const RESPONSES_API_TYPES: readonly number[] = [
  2, 4, 5, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 26, 28, 29, 31, 32, 36, 39, 44, 45, 48, 50, 51,
]

/** The config sent for a type: its text fields trimmed, `num_ctx` a number, `responses_api` a boolean. */
function configOf(
  type: number,
  values: ChannelFormValues['config'],
): Record<string, string | number | boolean> {
  const config: Record<string, string | number | boolean> = {}
  for (const field of CONFIG_BY_TYPE[type] ?? []) config[field] = String(values[field]).trim()
  if (typeof config.num_ctx === 'string') {
    if (config.num_ctx === '') delete config.num_ctx
    else config.num_ctx = Number(config.num_ctx)
  }
  if (RESPONSES_API_TYPES.includes(type) && values.responses_api === 'true') config.responses_api = true
  return config
}

/** The request body: an Azure channel without a version gets the default one; a blank key stays blank. */
export function toPayload(values: ChannelFormValues, creating: boolean): ChannelPayload {
  const type = Number(values.type)
  const config = configOf(type, values.config)
  const other =
    type === ChannelType.azure && values.other.trim() === '' ? DEFAULT_AZURE_API_VERSION : values.other
  return {
    type,
    name: values.name.trim(),
    key: values.key.trim(),
    base_url: values.base_url.trim(),
    other: other.trim(),
    model_mapping: values.model_mapping.trim(),
    models: type === ChannelType.proxy ? [] : values.models,
    group: values.groups,
    config,
    priority: values.priority,
    weight: values.weight,
    ...(creating ? { batch: values.batch } : {}),
  }
}
