import type { LogQuery, LogView } from '@one-api/contracts/log'
import type { LogFilter, LogRow } from '../../db/repositories/log-queries.ts'
import { toBoolean } from '../../db/schema.ts'

export function toLogView(row: LogRow): LogView {
  return {
    id: row.id,
    created_at: Number(row.created_at),
    type: row.type,
    content: row.content ?? '',
    username: row.username ?? '',
    token_name: row.token_name ?? '',
    model_name: row.model_name ?? '',
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    channel: Number(row.channel_id),
    ip: row.ip ?? '',
    request_id: row.request_id ?? '',
    elapsed_time: Number(row.elapsed_time),
    is_stream: toBoolean(row.is_stream),
  }
}

/** The admin view filters by anything; the self view is pinned to the caller and ignores username and channel. */
export function toLogFilter(query: LogQuery, selfUserId?: number): LogFilter {
  const common: LogFilter = {
    type: query.type,
    tokenName: query.token_name,
    modelName: query.model_name,
    startTimestamp: query.start_timestamp,
    endTimestamp: query.end_timestamp,
  }
  if (selfUserId !== undefined) return { ...common, userId: selfUserId }
  return { ...common, username: query.username, channelId: query.channel }
}
