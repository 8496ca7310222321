import { useMutation } from '@tanstack/react-query'
import { apiDelete } from '@/lib/api-client.ts'

/** DELETE /api/log/?target_timestamp=: removes the log entries older than that second; data is the count. */
export const clearLogsBefore = (targetTimestamp: number) =>
  apiDelete<number>(`/api/log/?target_timestamp=${targetTimestamp}`)

export const useClearLogs = () => useMutation({ mutationFn: clearLogsBefore })
