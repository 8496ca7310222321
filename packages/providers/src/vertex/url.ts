import type { ChannelCredentials } from '../adaptor.ts'
import type { VertexSettings } from './service-account.ts'

/**
 * `https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{action}`
 * (`aiplatform.googleapis.com` for the global region), or the channel's base URL in place of the host.
 * https://cloud.google.com/vertex-ai/docs/reference/rest
 */
export function vertexUrl(
  channel: ChannelCredentials,
  settings: VertexSettings,
  publisher: 'anthropic' | 'google',
  model: string,
  action: string,
): string {
  const host =
    settings.region === 'global'
      ? 'https://aiplatform.googleapis.com'
      : `https://${settings.region}-aiplatform.googleapis.com`
  const base = (channel.baseUrl || host).replace(/\/+$/, '')
  const { projectId, region } = settings
  return `${base}/v1/projects/${projectId}/locations/${region}/publishers/${publisher}/models/${model}:${action}`
}
