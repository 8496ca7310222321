import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client.ts'

/** POST /api/option/test_mail (root): one mail through the saved SMTP settings; answers the server's message. */
export function useSendTestMail() {
  return useMutation({
    mutationFn: async (email: string) =>
      (await apiRequest<void>('POST', '/api/option/test_mail', { body: { email } })).message,
  })
}
