/**
 * A Vertex AI channel's settings: the region, the project id and the service account's key file
 * (the ADC JSON), from the channel config's `region`, `vertex_ai_project_id` and `vertex_ai_adc`
 * (one-api's form), or from the key `region|project id|ADC JSON`, or from a key that is the ADC
 * JSON alone (then the project is the service account's own, and the config gives the region).
 * https://cloud.google.com/iam/docs/keys-create-delete
 */
import type { ChannelCredentials, UpstreamError } from '../adaptor.ts'
import { unusableChannelKey } from '../shared/credential-exchange.ts'

export interface ServiceAccount {
  readonly clientEmail: string
  readonly privateKey: string
  readonly privateKeyId?: string
  readonly tokenUri: string
}

export interface VertexSettings {
  readonly region: string
  readonly projectId: string
  readonly account: ServiceAccount
  /** The key file as the channel holds it (a digest of it names the cached token). */
  readonly adc: string
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'

const configString = (channel: ChannelCredentials, field: string): string | undefined => {
  const value = channel.config?.[field]
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** `region|project|{json}`: the JSON may hold `|` itself, so only the first two split. */
function keyParts(key: string): { region?: string; projectId?: string; adc?: string } {
  const trimmed = key.trim()
  if (trimmed.startsWith('{')) return { adc: trimmed }
  const first = trimmed.indexOf('|')
  const second = first === -1 ? -1 : trimmed.indexOf('|', first + 1)
  if (second === -1) return {}
  return {
    region: trimmed.slice(0, first).trim(),
    projectId: trimmed.slice(first + 1, second).trim(),
    adc: trimmed.slice(second + 1).trim(),
  }
}

function parseAccount(adc: string): (ServiceAccount & { projectId?: string }) | undefined {
  let json: unknown
  try {
    json = JSON.parse(adc)
  } catch {
    return undefined
  }
  if (typeof json !== 'object' || json === null) return undefined
  const fields = json as Record<string, unknown>
  const text = (name: string) =>
    typeof fields[name] === 'string' && fields[name] !== '' ? (fields[name] as string) : undefined
  const clientEmail = text('client_email')
  const privateKey = text('private_key')
  if (!clientEmail || !privateKey) return undefined
  return {
    clientEmail,
    privateKey,
    privateKeyId: text('private_key_id'),
    tokenUri: text('token_uri') ?? GOOGLE_TOKEN_URI,
    projectId: text('project_id'),
  }
}

export function vertexSettings(channel: ChannelCredentials): VertexSettings | UpstreamError {
  const parts = keyParts(channel.key)
  const adc = configString(channel, 'vertex_ai_adc') ?? parts.adc
  const account = adc ? parseAccount(adc) : undefined
  if (!adc || !account) {
    return unusableChannelKey(
      'a Vertex AI channel needs a service account key file (JSON with client_email and private_key) in config vertex_ai_adc or in its key',
    )
  }
  const region = configString(channel, 'region') ?? parts.region
  const projectId = configString(channel, 'vertex_ai_project_id') ?? parts.projectId ?? account.projectId
  if (!region || !/^[a-z0-9-]+$/.test(region))
    return unusableChannelKey('a Vertex AI channel needs a region (config region)')
  if (!projectId || !/^[a-z0-9-]+$/.test(projectId)) {
    return unusableChannelKey('a Vertex AI channel needs a project id (config vertex_ai_project_id)')
  }
  const { projectId: _own, ...serviceAccount } = account
  return { region, projectId, account: serviceAccount, adc }
}
