import type { OptionKey } from '@one-api/contracts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPut } from '@/lib/api-client.ts'
import { refreshStatus } from '@/lib/status.ts'
import { optionKeys } from './option-keys.ts'

export interface OptionChange {
  key: OptionKey
  value: string
}

/**
 * PUT /api/option/ once per changed option, in order; the first refusal stops the rest (its message
 * has been shown). Resolves to how many were saved.
 */
export async function updateOptions(changes: readonly OptionChange[]): Promise<number> {
  for (const change of changes) await apiPut('/api/option/', change)
  return changes.length
}

/** Saving refreshes the options and the status record (system name, logo, footer, currency...). */
export function useUpdateOptions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateOptions,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: optionKeys.all })
      await refreshStatus()
    },
  })
}
