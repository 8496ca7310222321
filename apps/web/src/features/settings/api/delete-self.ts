import { useMutation } from '@tanstack/react-query'
import { apiDelete } from '@/lib/api-client.ts'

/** DELETE /api/user/self: the account is deleted and its session ends (the super admin cannot). */
export const deleteSelf = () => apiDelete<null>('/api/user/self')

export const useDeleteSelf = () => useMutation({ mutationFn: deleteSelf })
