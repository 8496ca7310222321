import type { CreateUserInput } from '@one-api/contracts/user-admin'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPost } from '@/lib/api-client.ts'
import { type UserView, userKeys } from './user-keys.ts'

/** POST /api/user/: a new normal user. */
export const createUser = (input: CreateUserInput) => apiPost<UserView>('/api/user/', input)

export function useCreateUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}
