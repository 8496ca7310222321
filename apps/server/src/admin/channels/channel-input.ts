import { ChannelStatus } from '@one-api/contracts'
import {
  type ChannelConfig,
  type ChannelCreateInput,
  type ChannelFieldsInput,
  ChannelMessages,
  composeChannelKey,
  DEFAULT_CHANNEL_GROUP,
  MAX_BATCH_CHANNEL_KEYS,
  MAX_CHANNEL_KEY_LENGTH,
  SECRET_CONFIG_FIELDS,
  splitList,
} from '@one-api/contracts/channel'
import { ChannelType, DEFAULT_AZURE_API_VERSION } from '@one-api/contracts/channel-types'
import type { ChannelPatch, ChannelRow, NewChannel } from '../../db/repositories/channels-repository.ts'
import { badRequest } from '../../http/errors.ts'

/** The form's fields once checked and completed with defaults, before they become one or more rows. */
interface ChannelDraft {
  type: number
  name: string
  base_url: string
  other: string
  model_mapping: string
  system_prompt: string
  models: string[]
  groups: string[]
  config: ChannelConfig | undefined
  priority: number
  weight: number
  status: number
}

function parseConfig(text: string | null): ChannelConfig | undefined {
  if (!text) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as ChannelConfig)
      : undefined
  } catch {
    return undefined
  }
}

/** Checks that hold for every saved channel, whether created or fully updated. */
function checkDraft(draft: ChannelDraft): void {
  if (draft.type !== ChannelType.proxy && draft.models.length === 0)
    throw badRequest(ChannelMessages.modelRequired)
  // Azure's API version travels in `other`, as in one-api.
  if (draft.type === ChannelType.azure && draft.other === '') draft.other = DEFAULT_AZURE_API_VERSION
}

function checkKeyLength(key: string): void {
  if (key.length > MAX_CHANNEL_KEY_LENGTH) {
    throw badRequest(`a channel key must be at most ${MAX_CHANNEL_KEY_LENGTH} characters`)
  }
}

type FormColumns = Pick<
  ChannelRow,
  | 'type'
  | 'name'
  | 'base_url'
  | 'other'
  | 'model_mapping'
  | 'system_prompt'
  | 'models'
  | 'group'
  | 'config'
  | 'priority'
  | 'weight'
  | 'status'
>

function toColumns(draft: ChannelDraft): FormColumns {
  return {
    type: draft.type,
    name: draft.name,
    base_url: draft.base_url,
    other: draft.other,
    model_mapping: draft.model_mapping,
    system_prompt: draft.system_prompt,
    models: draft.models.join(','),
    group: draft.groups.join(','),
    config: draft.config === undefined ? '' : JSON.stringify(draft.config),
    priority: draft.priority,
    weight: draft.weight,
    status: draft.status,
  }
}

/**
 * Keys given in the form: one per non-empty line for a batch, else the single key. Vertex AI keys
 * end in a credentials JSON that may span lines, so only an explicit batch splits them.
 */
function keysOf(input: ChannelCreateInput, type: number): string[] {
  const key = input.key?.trim() ?? ''
  const batch = input.batch === true || (type !== ChannelType.vertexAi && /[\r\n]/.test(key))
  if (!batch) return key === '' ? [] : [key]
  const keys = splitList(key.split(/\r?\n/))
  if (keys.length > MAX_BATCH_CHANNEL_KEYS) {
    throw badRequest(`at most ${MAX_BATCH_CHANNEL_KEYS} keys can be added at once`)
  }
  return keys
}

/** `POST /api/channel/`: the rows to insert, one per key. */
export function prepareCreate(input: ChannelCreateInput, now: number): NewChannel[] {
  const type = input.type ?? ChannelType.openAI
  const config = input.config
  let keys = keysOf(input, type)
  if (keys.length === 0) {
    const composed = composeChannelKey(type, config ?? {})
    if (composed !== '') keys = [composed]
  }
  const name = input.name ?? ''
  if (name === '' || keys.length === 0) throw badRequest(ChannelMessages.nameAndKeyRequired)
  keys.forEach(checkKeyLength)
  const groups = input.group ?? []
  const draft: ChannelDraft = {
    type,
    name,
    base_url: input.base_url ?? '',
    other: input.other ?? '',
    model_mapping: input.model_mapping ?? '',
    system_prompt: input.system_prompt ?? '',
    models: input.models ?? [],
    groups: groups.length > 0 ? groups : [DEFAULT_CHANNEL_GROUP],
    config,
    priority: input.priority ?? 0,
    weight: input.weight ?? 0,
    status: input.status ?? ChannelStatus.enabled,
  }
  checkDraft(draft)
  const columns = toColumns(draft)
  return keys.map((key) => ({
    ...columns,
    key,
    created_time: now,
    test_time: 0,
    response_time: 0,
    balance: 0,
    balance_updated_time: 0,
    used_quota: 0,
  }))
}

/**
 * Secret config fields are blanked in replies, so a form sent back with them blank means
 * "unchanged": keep the stored values.
 */
function mergeConfig(stored: ChannelConfig | undefined, sent: ChannelConfig): ChannelConfig {
  const merged = { ...sent }
  for (const field of SECRET_CONFIG_FIELDS) {
    if ((merged[field] === undefined || merged[field] === '') && stored?.[field] !== undefined) {
      merged[field] = stored[field]
    }
  }
  return merged
}

/**
 * `PUT /api/channel/` with form fields: the sent fields over the stored row, checked like a new
 * channel. A blank name or key keeps the stored one, as one-api's update did.
 */
export function prepareFullUpdate(existing: ChannelRow, input: ChannelFieldsInput): ChannelPatch {
  const type = input.type ?? existing.type
  const storedConfig = parseConfig(existing.config)
  const config = input.config === undefined ? storedConfig : mergeConfig(storedConfig, input.config)
  const groups = input.group ?? splitList(existing.group)
  const draft: ChannelDraft = {
    type,
    name: input.name || existing.name,
    base_url: input.base_url === undefined ? (existing.base_url ?? '') : (input.base_url ?? ''),
    other: input.other === undefined ? (existing.other ?? '') : (input.other ?? ''),
    model_mapping: input.model_mapping ?? existing.model_mapping ?? '',
    system_prompt:
      input.system_prompt === undefined ? (existing.system_prompt ?? '') : (input.system_prompt ?? ''),
    models: input.models ?? splitList(existing.models),
    groups: groups.length > 0 ? groups : [DEFAULT_CHANNEL_GROUP],
    config,
    priority: input.priority ?? existing.priority,
    weight: input.weight ?? existing.weight,
    status: input.status ?? existing.status,
  }
  checkDraft(draft)
  const patch: ChannelPatch = toColumns(draft)
  if (input.config === undefined && existing.config === null) delete patch.config
  let key = input.key?.trim() ?? ''
  if (key !== '' && type !== ChannelType.vertexAi && /[\r\n]/.test(key)) {
    throw badRequest('an update takes a single key: batch creation is only for new channels')
  }
  if (key === '' && input.config !== undefined) key = composeChannelKey(type, config ?? {})
  if (key !== '') {
    checkKeyLength(key)
    patch.key = key
  }
  return patch
}

/** What a reply may show of a stored config: secret fields blanked. */
export function redactConfig(text: string | null): string {
  const config = parseConfig(text)
  // A config that is not a JSON object cannot be redacted field by field, so none of it is shown.
  if (!config) return ''
  for (const field of SECRET_CONFIG_FIELDS) {
    if (typeof config[field] === 'string' && config[field] !== '') config[field] = ''
  }
  return JSON.stringify(config)
}
