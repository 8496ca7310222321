import type { ChannelView } from '@one-api/contracts/channel'
import type { PublicChannelRow } from '../../db/repositories/channels-repository.ts'
import { redactConfig } from './channel-input.ts'

/** A channel as replies show it: no key (it is never even selected) and no secret config fields. */
export function toChannelView(row: PublicChannelRow): ChannelView {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    name: row.name,
    weight: Number(row.weight),
    created_time: Number(row.created_time),
    test_time: Number(row.test_time),
    response_time: Number(row.response_time),
    base_url: row.base_url ?? '',
    other: row.other ?? '',
    balance: Number(row.balance),
    balance_updated_time: Number(row.balance_updated_time),
    models: row.models ?? '',
    group: row.group,
    used_quota: Number(row.used_quota),
    model_mapping: row.model_mapping ?? '',
    priority: Number(row.priority),
    config: redactConfig(row.config),
    system_prompt: row.system_prompt ?? '',
  }
}
