/**
 * Fetches the image URLs of a request for upstreams that take images inline only (see
 * Adaptor.remoteImages): with a size cap and a timeout, and never from a private, loopback,
 * link-local or otherwise internal address unless the administrator allows it
 * (RELAY_IMAGE_ALLOW_PRIVATE): a client must not make the gateway read its own network. The
 * address is checked where the connection is made (after DNS), so a name that resolves to an
 * internal address is refused too; redirects are not followed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'
import type { InlineImage, UpstreamError } from '@one-api/providers'
import { localError } from '@one-api/providers'
import { Agent, request } from 'undici'

export interface ImageFetchOptions {
  /** RELAY_IMAGE_MAX_BYTES: the most one image may hold. */
  maxBytes: number
  /** RELAY_IMAGE_TIMEOUT: seconds an image may take in all. */
  timeoutSeconds: number
  /** RELAY_IMAGE_ALLOW_PRIVATE: internal addresses may be fetched from. */
  allowPrivate: boolean
}

const internal = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  internal.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(network, prefix, 'ipv6')

/** True for an address no public image can live at (IPv4-mapped IPv6 read as its IPv4). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return internal.check(mapped[1]!, 'ipv4')
  const family = isIP(address)
  if (family === 0) return true
  return internal.check(address, family === 6 ? 'ipv6' : 'ipv4')
}

class ImageRefused extends Error {}

/** A DNS lookup that refuses internal addresses, for the connections of the fetcher. */
function guardedLookup(
  hostname: string,
  options: object,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, [])
    const allowed = addresses.filter((entry) => !isInternalAddress(entry.address))
    if (allowed.length === 0) return callback(new ImageRefused(`${hostname} is an internal address`), [])
    const all = (options as { all?: boolean }).all
    if (all) return callback(null, allowed)
    callback(null, allowed[0]!.address, allowed[0]!.family)
  })
}

export class ImageFetcher {
  private readonly agent: Agent

  constructor(private readonly options: ImageFetchOptions) {
    this.agent = new Agent({
      connect: options.allowPrivate ? {} : { lookup: guardedLookup as never },
      maxResponseSize: options.maxBytes,
    })
  }

  /** The images by URL, or the client's error (400) naming the URL that could not be used. */
  async fetchAll(urls: readonly string[]): Promise<Map<string, InlineImage> | UpstreamError> {
    const images = new Map<string, InlineImage>()
    for (const url of new Set(urls)) {
      const image = await this.fetchOne(url)
      if ('kind' in image) return image
      images.set(url, image)
    }
    return images
  }

  private async fetchOne(url: string): Promise<InlineImage | UpstreamError> {
    const refused = (reason: string) =>
      localError(400, 'invalid_image_url', `The image ${url.slice(0, 200)} could not be used: ${reason}`, {
        type: 'invalid_request_error',
      })
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return refused('it is not a URL')
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return refused('only http and https are fetched')
    const host = parsed.hostname.replace(/^\[|\]$/g, '')
    if (!this.options.allowPrivate && isIP(host) !== 0 && isInternalAddress(host)) {
      return refused('it is on an internal address')
    }
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutSeconds * 1000),
      })
      const body = Buffer.from(await response.body.arrayBuffer())
      if (response.statusCode !== 200) return refused(`its server answered ${response.statusCode}`)
      const mediaType = String(response.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
      if (!mediaType.startsWith('image/')) return refused(`it is not an image (${mediaType || 'no type'})`)
      return { mediaType, base64: body.toString('base64') }
    } catch (error) {
      return refused(imageFailure(error, this.options))
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy()
  }
}

function imageFailure(error: unknown, options: ImageFetchOptions): string {
  const cause = (error as { cause?: unknown }).cause ?? error
  if (cause instanceof ImageRefused || error instanceof ImageRefused) return 'it is on an internal address'
  const code = (cause as { code?: string }).code ?? (error as { code?: string }).code
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return `it is larger than ${options.maxBytes} bytes`
  const name = (error as { name?: string }).name
  if (name === 'TimeoutError' || name === 'AbortError')
    return `it took longer than ${options.timeoutSeconds} s`
  return 'it could not be fetched'
}
