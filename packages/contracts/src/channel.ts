import { z } from 'zod'
import { ChannelType, isSelectableChannelType } from './channel-types.ts'
import { nestsDeeperThan, tooDeepMessage } from './json-depth.ts'

/** Messages of the channel form's rules, shown by the console as the server sends them. */
export const ChannelMessages = {
  nameAndKeyRequired: 'please fill in channel name and channel key',
  modelRequired: 'please select at least one model',
  invalidModelMapping: 'model mapping must be valid JSON',
  invalidConfig: 'config must be a JSON object',
  unknownType: 'unknown channel type',
  invalidStatus: 'status must be 1 (enabled), 2 (manually disabled) or 3 (automatically disabled)',
} as const

export const DEFAULT_CHANNEL_GROUP = 'default'
/** One key; Vertex AI keys carry a service-account JSON of a few KB. */
export const MAX_CHANNEL_KEY_LENGTH = 16_384
export const MAX_BATCH_CHANNEL_KEYS = 1000
/** Column sizes: abilities.group varchar(64), abilities.model varchar(191), channels.group varchar(255). */
export const MAX_GROUP_NAME_LENGTH = 64
export const MAX_MODEL_NAME_LENGTH = 191
export const MAX_GROUP_LIST_LENGTH = 255

/** "a, b,,a" or [' a', 'b'] -> ['a', 'b']: trimmed, blanks dropped, duplicates removed, order kept. */
export function splitList(value: string | readonly string[] | null | undefined): string[] {
  const items = typeof value === 'string' ? value.split(',') : (value ?? [])
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))]
}

/** The model redirect as an object, or undefined when it is not a JSON object of strings. */
export function parseModelMapping(text: string): Record<string, string> | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const entries = Object.entries(parsed)
  if (!entries.every(([, target]) => typeof target === 'string')) return undefined
  return Object.fromEntries(entries) as Record<string, string>
}

export type ChannelConfig = Record<string, unknown>

function configText(config: ChannelConfig, name: string): string {
  const value = config[name]
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * The key AWS (33) and Vertex AI (42) channels are built from when no key is typed: AK|SK|region
 * and region|project id|credentials JSON. '' when the type has no such rule or a part is missing.
 */
export function composeChannelKey(type: number, config: ChannelConfig): string {
  const parts =
    type === ChannelType.aws
      ? [configText(config, 'ak'), configText(config, 'sk'), configText(config, 'region')]
      : type === ChannelType.vertexAi
        ? [
            configText(config, 'region'),
            configText(config, 'vertex_ai_project_id'),
            configText(config, 'vertex_ai_adc'),
          ]
        : []
  return parts.length > 0 && parts.every((part) => part !== '') ? parts.join('|') : ''
}

/** Config fields that are secrets: replaced by '' in replies, kept when an update sends them blank. */
export const SECRET_CONFIG_FIELDS = ['sk', 'vertex_ai_adc'] as const

const listSchema = (what: string, maxItemLength: number) =>
  z
    .union([z.string(), z.array(z.string()), z.null()], {
      error: `${what} must be a list or a comma-separated string`,
    })
    .transform(splitList)
    .refine((items) => items.every((item) => item.length <= maxItemLength), {
      error: `each of ${what} must be at most ${maxItemLength} characters`,
    })

/** A number, a numeric string, or blank ('' / null, which means "not given"). */
const blankableInteger = (field: string) =>
  z
    .union([z.number(), z.string(), z.null()], { error: `${field} must be an integer` })
    .transform((value, context) => {
      if (value === null || (typeof value === 'string' && value.trim() === '')) return undefined
      const number = typeof value === 'number' ? value : Number(value.trim())
      if (!Number.isSafeInteger(number)) {
        context.addIssue({ code: 'custom', message: `${field} must be an integer` })
        return z.NEVER
      }
      return number
    })

const configSchema = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.null()], { error: ChannelMessages.invalidConfig })
  .transform((value, context): ChannelConfig | undefined => {
    if (value === null) return undefined
    if (typeof value !== 'string') return value
    if (value.trim() === '') return undefined
    try {
      const parsed: unknown = JSON.parse(value)
      if (nestsDeeperThan(parsed)) {
        context.addIssue({ code: 'custom', message: tooDeepMessage('config') })
        return z.NEVER
      }
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as ChannelConfig
    } catch {
      // reported below
    }
    context.addIssue({ code: 'custom', message: ChannelMessages.invalidConfig })
    return z.NEVER
  })

const modelMappingSchema = z
  .union([z.string(), z.record(z.string(), z.unknown()), z.null()], {
    error: ChannelMessages.invalidModelMapping,
  })
  .transform((value, context) => {
    const text = value === null ? '' : typeof value === 'string' ? value.trim() : JSON.stringify(value)
    if (text !== '' && !parseModelMapping(text)) {
      context.addIssue({ code: 'custom', message: ChannelMessages.invalidModelMapping })
      return z.NEVER
    }
    return text
  })

export const channelStatusSchema = z
  .number({ error: ChannelMessages.invalidStatus })
  .refine((status) => status === 1 || status === 2 || status === 3, { error: ChannelMessages.invalidStatus })

/** The editable fields of the channel form; absent fields are left as they are on update. */
export const channelFieldsSchema = z.object({
  type: z
    .number({ error: 'type must be a channel type id' })
    .refine(isSelectableChannelType, { error: ChannelMessages.unknownType })
    .optional(),
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .max(128, 'name must be at most 128 characters')
    .optional(),
  key: z.string({ error: 'key must be a string' }).optional(),
  base_url: z
    .string({ error: 'base_url must be a string' })
    .trim()
    .max(255, 'base URL must be at most 255 characters')
    .refine((url) => url === '' || /^https?:\/\/[^\s]+$/i.test(url), {
      error: 'base URL must start with http:// or https://',
    })
    // Paths are appended to the base URL, so a trailing slash would double up.
    .transform((url) => url.replace(/\/+$/, ''))
    .nullish(),
  other: z
    .string({ error: 'other must be a string' })
    .trim()
    .max(1024, 'other must be at most 1024 characters')
    .nullish(),
  model_mapping: modelMappingSchema.optional(),
  system_prompt: z.string({ error: 'system_prompt must be a string' }).max(65_536).nullish(),
  models: listSchema('models', MAX_MODEL_NAME_LENGTH).optional(),
  group: listSchema('groups', MAX_GROUP_NAME_LENGTH)
    .refine((groups) => groups.join(',').length <= MAX_GROUP_LIST_LENGTH, {
      error: `groups must be at most ${MAX_GROUP_LIST_LENGTH} characters in all`,
    })
    .optional(),
  config: configSchema.optional(),
  priority: blankableInteger('priority').optional(),
  // A negative weight means "no weight".
  weight: blankableInteger('weight')
    .transform((weight) => (weight === undefined ? undefined : Math.min(Math.max(weight, 0), 2_147_483_647)))
    .optional(),
  status: channelStatusSchema.optional(),
})
export type ChannelFieldsInput = z.infer<typeof channelFieldsSchema>

/** `POST /api/channel/`: `batch` (or a key with several lines) creates one channel per key line. */
export const channelCreateInputSchema = channelFieldsSchema.extend({
  batch: z.boolean({ error: 'batch must be true or false' }).optional(),
})
export type ChannelCreateInput = z.infer<typeof channelCreateInputSchema>

/** `PUT /api/channel/`: id plus only status / priority / weight, or the form's fields. */
export const channelUpdateInputSchema = channelFieldsSchema.extend({
  id: z.number({ error: 'channel id is required' }).int().positive('channel id is required'),
})
export type ChannelUpdateInput = z.infer<typeof channelUpdateInputSchema>

/** Fields whose presence makes an update a full one rather than a status/priority/weight change. */
export const CHANNEL_FORM_FIELDS = [
  'type',
  'name',
  'key',
  'base_url',
  'other',
  'model_mapping',
  'system_prompt',
  'models',
  'group',
  'config',
] as const

/** A channel as the management API returns it: never with its key. */
export interface ChannelView {
  id: number
  type: number
  status: number
  name: string
  weight: number
  created_time: number
  test_time: number
  response_time: number
  base_url: string
  other: string
  balance: number
  balance_updated_time: number
  models: string
  group: string
  used_quota: number
  model_mapping: string
  priority: number
  config: string
  system_prompt: string
}

/** Columns the channel list may be sorted by (`sort`), each ascending or descending (`order`). */
export const CHANNEL_SORT_KEYS = [
  'id',
  'name',
  'group',
  'type',
  'status',
  'response_time',
  'balance',
  'priority',
] as const
export type ChannelSortKey = (typeof CHANNEL_SORT_KEYS)[number]
export type SortOrder = 'asc' | 'desc'

/** `GET /api/channel/` and `/api/channel/search`: `sort` and `order`; absent means newest first. */
export const channelSortQuerySchema = z.object({
  sort: z
    .enum(CHANNEL_SORT_KEYS, { error: `sort must be one of ${CHANNEL_SORT_KEYS.join(', ')}` })
    .default('id'),
  order: z.enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" }).default('desc'),
})
export type ChannelSort = z.infer<typeof channelSortQuerySchema>

/**
 * The channel form's submit rules over the create/update fields: on create a name and a key (typed,
 * or composed from the AWS / Vertex AI fields) are required; every type but proxy needs a model.
 * The console validates with it and the server refuses the same mistakes with the same messages.
 */
export function channelSubmitSchema(creating: boolean) {
  return channelCreateInputSchema.superRefine((input, context) => {
    const type = input.type ?? ChannelType.openAI
    if (creating) {
      const key = input.key?.trim() || composeChannelKey(type, input.config ?? {})
      if (!input.name || !key) {
        context.addIssue({
          code: 'custom',
          path: [input.name ? 'key' : 'name'],
          message: ChannelMessages.nameAndKeyRequired,
        })
      }
    }
    if (type !== ChannelType.proxy && (input.models ?? []).length === 0) {
      context.addIssue({ code: 'custom', path: ['models'], message: ChannelMessages.modelRequired })
    }
  })
}
