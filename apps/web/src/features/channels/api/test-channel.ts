import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiGet, apiRequest } from '@/lib/api-client.ts'
import { channelKeys } from './channel-keys.ts'

export interface ChannelTestResult {
  /** Seconds the test request took. */
  time: number
  model: string
}

/** GET /api/channel/test/{id}?model: one chat request through the channel (model '' = its default). */
export async function testChannel({ id, model }: { id: number; model: string }): Promise<ChannelTestResult> {
  const query = model ? `?model=${encodeURIComponent(model)}` : ''
  const reply = (await apiRequest<never>(
    'GET',
    `/api/channel/test/${id}${query}`,
  )) as unknown as ChannelTestResult
  return { time: Number(reply.time ?? 0), model: String(reply.model ?? model) }
}

/** GET /api/channel/test?scope=all|disabled: starts testing in the background. */
export const testChannels = (scope: 'all' | 'disabled') => apiGet(`/api/channel/test?scope=${scope}`)

export function useTestChannel() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: testChannel,
    // The test stores the response time (and may disable the channel): show it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  })
}

export const useTestChannels = () => useMutation({ mutationFn: testChannels })
