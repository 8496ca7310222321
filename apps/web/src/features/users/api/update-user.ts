import type { UpdateUserInput } from '@one-api/contracts/user-admin'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPut } from '@/lib/api-client.ts'
import { type UserView, userKeys } from './user-keys.ts'

/** PUT /api/user/: another user's fields; those left out (a blank password, an unchanged quota) stay. */
export const updateUser = (input: UpdateUserInput) => apiPut<UserView>('/api/user/', input)

export function useUpdateUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}
