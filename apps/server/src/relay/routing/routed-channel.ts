import type { Selectable } from 'kysely'
import type { ChannelsTable } from '../../db/schema.ts'

/** A channel as the relay uses it: parsed once when the routing index is built. */
export interface RoutedChannel {
  id: number
  name: string
  type: number
  key: string
  status: number
  baseUrl: string
  other: string
  config: Record<string, unknown>
  modelMapping: Record<string, string>
  systemPrompt: string
  weight: number
  priority: number
}

export function toRoutedChannel(row: Selectable<ChannelsTable>): RoutedChannel {
  return {
    id: row.id,
    name: row.name ?? '',
    type: row.type,
    key: row.key,
    status: row.status,
    baseUrl: (row.base_url ?? '').replace(/\/+$/, ''),
    other: row.other ?? '',
    config: parseObject(row.config),
    modelMapping: parseObject(row.model_mapping) as Record<string, string>,
    systemPrompt: row.system_prompt ?? '',
    weight: Math.max(0, Number(row.weight ?? 0)),
    priority: Number(row.priority ?? 0),
  }
}

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {}
  try {
    const value = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
  } catch {
    return {}
  }
}
