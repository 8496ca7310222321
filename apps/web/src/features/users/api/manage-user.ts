import type { ManageUserInput } from '@one-api/contracts/user-admin'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPost } from '@/lib/api-client.ts'
import { userKeys } from './user-keys.ts'

/** POST /api/user/manage: delete, disable, enable, promote or demote; the reply is the new status and role. */
export const manageUser = (input: ManageUserInput) =>
  apiPost<{ status: number; role: number }>('/api/user/manage', input)

export function useManageUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: manageUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}
