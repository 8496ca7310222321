/**
 * Decodes the AWS event stream framing (`application/vnd.amazon.eventstream`) of Bedrock's
 * streaming answers, incrementally: bytes go in as the network delivers them, whole messages come
 * out. Each message is a 12-byte prelude (total length, headers length, prelude CRC32), the
 * headers, the payload and a CRC32 of all before it, all big-endian.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html
 */
import { crc32 } from 'node:zlib'

export interface EventStreamMessage {
  /** String headers by name (`:event-type`, `:message-type`, `:exception-type`, `:content-type`). */
  readonly headers: Record<string, string>
  readonly payload: Buffer
}

const PRELUDE = 12
const CHECKSUM = 4
/** AWS caps a message at 16 MiB; anything longer is corrupt framing. */
const MAX_MESSAGE = 16 * 1024 * 1024

export class EventStreamError extends Error {}

/** Byte lengths of the header value types that have a fixed size (by type id). */
const FIXED_SIZES: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 }

export class EventStreamDecoder {
  private buffered: Buffer = Buffer.alloc(0)

  /** The messages completed by `chunk`; throws EventStreamError on corrupt framing. */
  push(chunk: Buffer): EventStreamMessage[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk])
    const messages: EventStreamMessage[] = []
    while (this.buffered.length >= PRELUDE) {
      const total = this.buffered.readUInt32BE(0)
      if (total < PRELUDE + CHECKSUM || total > MAX_MESSAGE) throw new EventStreamError('bad message length')
      if (crc32(this.buffered.subarray(0, 8)) !== this.buffered.readUInt32BE(8)) {
        throw new EventStreamError('bad prelude checksum')
      }
      if (this.buffered.length < total) break
      const message = this.buffered.subarray(0, total)
      this.buffered = this.buffered.subarray(total)
      messages.push(decodeMessage(message))
    }
    return messages
  }

  /** Bytes of an unfinished message (a stream cut mid-message). */
  get pending(): number {
    return this.buffered.length
  }
}

function decodeMessage(message: Buffer): EventStreamMessage {
  const total = message.length
  if (crc32(message.subarray(0, total - CHECKSUM)) !== message.readUInt32BE(total - CHECKSUM)) {
    throw new EventStreamError('bad message checksum')
  }
  const headersLength = message.readUInt32BE(4)
  const headersEnd = PRELUDE + headersLength
  if (headersEnd > total - CHECKSUM) throw new EventStreamError('bad headers length')
  return {
    headers: decodeHeaders(message.subarray(PRELUDE, headersEnd)),
    payload: Buffer.from(message.subarray(headersEnd, total - CHECKSUM)),
  }
}

/** The string headers; values of other types are skipped over. */
function decodeHeaders(bytes: Buffer): Record<string, string> {
  const headers: Record<string, string> = {}
  let offset = 0
  while (offset < bytes.length) {
    const nameLength = bytes.readUInt8(offset)
    const name = bytes.toString('utf8', offset + 1, offset + 1 + nameLength)
    offset += 1 + nameLength
    const type = bytes.readUInt8(offset)
    offset += 1
    const fixed = FIXED_SIZES[type]
    if (fixed !== undefined) {
      offset += fixed
      continue
    }
    if (type !== 6 && type !== 7) throw new EventStreamError(`unknown header type ${type}`)
    const length = bytes.readUInt16BE(offset)
    offset += 2
    if (type === 7) headers[name] = bytes.toString('utf8', offset, offset + length)
    offset += length
  }
  if (offset !== bytes.length) throw new EventStreamError('bad headers')
  return headers
}
