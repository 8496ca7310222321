import { dayLabel, type UserDashboardRow } from '@one-api/contracts/dashboard'

export interface DayUsage {
  day: string
  quota: number
  requests: number
  tokens: number
  /** Quota per model, under the model's name (the chart's stacked series). */
  [model: string]: number | string
}

export interface ModelUsage {
  model: string
  quota: number
  requests: number
  tokens: number
}

export interface UserUsage {
  days: DayUsage[]
  models: ModelUsage[]
  totals: Omit<ModelUsage, 'model'>
}

const SECONDS_PER_DAY = 86_400
/** Today and the seven days before, as the server's dashboard covers. */
const DAYS = 8

/** The dashboard rows as the charts want them: every day of the week (zeros included) and per model. */
export function summariseUserUsage(rows: UserDashboardRow[], now = Date.now()): UserUsage {
  const today = Math.floor(now / 1000 / SECONDS_PER_DAY)
  const days = new Map<string, DayUsage>()
  for (let day = today - DAYS + 1; day <= today; day++) {
    const label = dayLabel(day)
    days.set(label, { day: label, quota: 0, requests: 0, tokens: 0 })
  }
  const models = new Map<string, ModelUsage>()
  for (const row of rows) {
    const tokens = row.PromptTokens + row.CompletionTokens
    const day = days.get(row.Day) ?? { day: row.Day, quota: 0, requests: 0, tokens: 0 }
    day.quota += row.Quota
    day.requests += row.RequestCount
    day.tokens += tokens
    day[row.ModelName] = Number(day[row.ModelName] ?? 0) + row.Quota
    days.set(row.Day, day)
    const model = models.get(row.ModelName) ?? { model: row.ModelName, quota: 0, requests: 0, tokens: 0 }
    model.quota += row.Quota
    model.requests += row.RequestCount
    model.tokens += tokens
    models.set(row.ModelName, model)
  }
  const sortedModels = [...models.values()].sort((a, b) => b.quota - a.quota || b.requests - a.requests)
  const totals = sortedModels.reduce(
    (sum, model) => ({
      quota: sum.quota + model.quota,
      requests: sum.requests + model.requests,
      tokens: sum.tokens + model.tokens,
    }),
    { quota: 0, requests: 0, tokens: 0 },
  )
  return {
    days: [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
    models: sortedModels,
    totals,
  }
}
