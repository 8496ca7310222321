import type { UpdateSelfInput } from '@one-api/contracts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPut } from '@/lib/api-client.ts'
import { selfQueryKey } from '@/lib/self-query.ts'
import type { SelfUser } from './get-self.ts'

/** PUT /api/user/self: only the fields given change; a new password keeps this session signed in. */
export const updateSelf = (input: UpdateSelfInput) => apiPut<SelfUser>('/api/user/self', input)

export function useUpdateSelf() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateSelf,
    onSuccess: (user) => queryClient.setQueryData(selfQueryKey, user),
  })
}
