import { useMutation } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** GET /api/user/token makes a new system access token; the previous one stops working. */
export const generateAccessToken = () => apiGet<string>('/api/user/token')

export const useGenerateAccessToken = () => useMutation({ mutationFn: generateAccessToken })
