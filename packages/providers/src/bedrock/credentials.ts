/**
 * A Bedrock channel's AWS credentials: the channel config's `ak`, `sk` and `region` (one-api's
 * form), or a key `AK|SK|region` for channels that hold them in the key.
 */
import type { ChannelCredentials, UpstreamError } from '../adaptor.ts'
import { unusableChannelKey } from '../shared/credential-exchange.ts'
import type { AwsCredentials } from './sigv4.ts'

const configString = (channel: ChannelCredentials, field: string): string | undefined => {
  const value = channel.config?.[field]
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

export function awsCredentials(channel: ChannelCredentials): AwsCredentials | UpstreamError {
  const parts = channel.key.split('|').map((part) => part.trim())
  const accessKeyId = configString(channel, 'ak') ?? (parts.length >= 2 ? parts[0] : undefined)
  const secretAccessKey = configString(channel, 'sk') ?? (parts.length >= 2 ? parts[1] : undefined)
  const region = configString(channel, 'region') ?? parts[2]
  if (!accessKeyId || !secretAccessKey || !region) {
    return unusableChannelKey(
      'an AWS channel needs an access key, a secret key and a region (config ak, sk and region, or the key AK|SK|region)',
    )
  }
  if (!/^[a-z0-9-]+$/.test(region))
    return unusableChannelKey('the AWS region of the channel is not a region name')
  return { accessKeyId, secretAccessKey, region }
}
