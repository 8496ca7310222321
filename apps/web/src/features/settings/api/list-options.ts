import type { OptionKey } from '@one-api/contracts'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { optionKeys } from './option-keys.ts'

/** The options as the forms read them: key to stored text (secrets are never listed). */
export type OptionValues = Partial<Record<OptionKey, string>>

/** GET /api/option/: every option but the secrets, as `[{key, value}]`. */
export async function fetchOptions(): Promise<OptionValues> {
  const entries = await apiGet<{ key: string; value: string }[]>('/api/option/')
  const values: Record<string, string> = {}
  for (const entry of entries) values[entry.key] = entry.value
  return values as OptionValues
}

export const optionsQueryOptions = () =>
  queryOptions({ queryKey: optionKeys.all, queryFn: fetchOptions, staleTime: 0 })

export const useOptions = () => useQuery(optionsQueryOptions())
