import { z } from 'zod'

/** Highest log type: 1 top-up, 2 consume, 3 manage, 4 system, 5 test; 0 means all. */
export const MAX_LOG_TYPE = 5
/** Deepest page a log list serves; deeper offsets are not useful and only cost the database. */
export const MAX_LOG_PAGE = 1_000_000

/** Query values arrive as strings; an empty value (a cleared console filter) means "no filter". */
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value)

const integerParameter = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${name} must be an integer` })
      .trim()
      .regex(/^-?\d+$/, `${name} must be an integer`)
      .transform(Number)
      .refine((value) => value >= min && value <= max, `${name} must be between ${min} and ${max}`)
      .optional(),
  )

const textParameter = (name: string, maxLength: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${name} must be a single value` })
      .trim()
      .max(maxLength, `${name} must be at most ${maxLength} characters`)
      .optional(),
  )

/**
 * Filters of `GET /api/log/`, `/api/log/stat` and their `self` variants. Timestamps are unix
 * seconds, inclusive; 0 means unbounded, as the console sends start 0 by default.
 */
export const logQuerySchema = z.object({
  p: integerParameter('p', 0, MAX_LOG_PAGE),
  type: integerParameter('type', 0, MAX_LOG_TYPE),
  username: textParameter('username', 64),
  token_name: textParameter('token_name', 64),
  model_name: textParameter('model_name', 128),
  start_timestamp: integerParameter('start_timestamp', 0),
  end_timestamp: integerParameter('end_timestamp', 0),
  channel: integerParameter('channel', 0),
})
export type LogQuery = z.infer<typeof logQuerySchema>

/** `GET /api/log/search?keyword=` and `/api/log/self/search`. */
export const logSearchQuerySchema = z.object({
  keyword: z.preprocess(
    (value) => value ?? '',
    z.string({ error: 'keyword must be a single value' }).trim().max(256, 'keyword is too long'),
  ),
})

/** `DELETE /api/log/?target_timestamp=`: logs created strictly before it are deleted. */
export const deleteLogsQuerySchema = z.object({
  target_timestamp: z
    .string({ error: 'target_timestamp is required (unix seconds)' })
    .trim()
    .regex(/^\d+$/, 'target_timestamp must be unix seconds')
    .transform(Number)
    .refine((value) => value > 0 && Number.isSafeInteger(value), 'target_timestamp must be unix seconds'),
})

/** One row of the log lists. */
export interface LogView {
  id: number
  created_at: number
  type: number
  content: string
  username: string
  token_name: string
  model_name: string
  quota: number
  prompt_tokens: number
  completion_tokens: number
  /** The channel id. */
  channel: number
  ip: string
  request_id: string
  elapsed_time: number
  is_stream: boolean
}

/** `GET /api/log/stat`: quota and tokens (prompt + completion) of the matching consume logs. */
export interface LogStat {
  quota: number
  token: number
}
