import type { z } from 'zod'
import { logQuerySchema } from './log.ts'

/** Days (UTC) the dashboards cover by default: today and the seven before, as one-api's does. */
export const DASHBOARD_DEFAULT_DAYS = 7
/** The longest period the administrator's dashboard answers for. */
export const DASHBOARD_MAX_DAYS = 366
/** Rows in each "top" list of the administrator's dashboard. */
export const DASHBOARD_TOP_ROWS = 10

/**
 * One row of `GET /api/user/dashboard`: a UTC day and a model, with one-api's field names (its Go
 * struct had no JSON tags, so the names are capitalised). Day is `YYYY-MM-DD`.
 */
export interface UserDashboardRow {
  Day: string
  ModelName: string
  RequestCount: number
  Quota: number
  PromptTokens: number
  CompletionTokens: number
}

/**
 * `GET /api/log/dashboard` (administrators): usage across all users over whole UTC days. The
 * period runs from the day of start_timestamp to the day of end_timestamp (default: today and the
 * seven days before); username, model_name and channel narrow it like the log filters.
 */
export const adminDashboardQuerySchema = logQuerySchema
  .pick({ username: true, model_name: true, channel: true, start_timestamp: true, end_timestamp: true })
  .refine(
    (query) => !query.start_timestamp || !query.end_timestamp || query.start_timestamp <= query.end_timestamp,
    'start_timestamp must not be after end_timestamp',
  )
export type AdminDashboardQuery = z.infer<typeof adminDashboardQuerySchema>

export interface DashboardUsage {
  request_count: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  /** Failed upstream attempts (a request that failed over counts one per failed channel). */
  error_count: number
}

export interface AdminDashboard {
  /** First and last day of the period, `YYYY-MM-DD` (UTC). */
  start_day: string
  end_day: string
  totals: DashboardUsage
  /** Every day of the period, oldest first, zeros where nothing happened. */
  days: (DashboardUsage & { day: string })[]
  /** The models with the most quota spent. */
  models: (DashboardUsage & { model_name: string })[]
  /** The channels with the most traffic (requests and errors); error_rate = errors / attempts. */
  channels: (DashboardUsage & { channel_id: number; channel_name: string; error_rate: number })[]
  /** The users who spent the most quota. */
  users: (DashboardUsage & { user_id: number; username: string })[]
}

const SECONDS_PER_DAY = 86_400

/** `YYYY-MM-DD` of a day number (days since 1970-01-01 UTC). */
export function dayLabel(day: number): string {
  return new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10)
}
