import type { Kysely } from 'kysely'
import type { LogSchema, NewLog } from '../schema.ts'
import { insertLogsWithTotals } from './log-totals.ts'

/**
 * Direct write for rare events (registration, top-up, management); consume logs are batched.
 * Any consume rows among them still count in the daily totals.
 */
export async function insertLogs(db: Kysely<LogSchema>, logs: NewLog[]): Promise<void> {
  await insertLogsWithTotals(db, logs)
}

export function systemLog(fields: Pick<NewLog, 'user_id' | 'type' | 'content'> & Partial<NewLog>): NewLog {
  return {
    created_at: Math.floor(Date.now() / 1000),
    username: '',
    token_name: '',
    model_name: '',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    channel_id: 0,
    request_id: '',
    elapsed_time: 0,
    is_stream: false,
    system_prompt_reset: false,
    ip: '',
    ...fields,
  }
}
