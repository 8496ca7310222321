/**
 * An Anthropic Messages event stream passed on to a Messages client: each event re-framed as
 * `event: <type>\ndata: <json>\n\n` as Anthropic sends it, its usage and text read on the way.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
import type { StreamTransformer, UpstreamError } from '../adaptor.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { anthropicUsage } from './response.ts'

const TEXT_CAP = 1 << 20

/** The closing event, added when the upstream ended its body without one. */
export const MESSAGE_STOP_EVENT = 'event: message_stop\ndata: {"type":"message_stop"}\n\n'

/** Reads usage and text from Anthropic events; shared by the native and the translated streams. */
export class AnthropicEventReader {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  stopped = false
  answered = false
  streamError: UpstreamError | undefined
  private rawUsage: Json = {}

  /** Reads one event's JSON; returns it, or undefined when it is not an event of the API. */
  read(data: string): Json | undefined {
    let event: unknown
    try {
      event = JSON.parse(data)
    } catch {
      return undefined
    }
    if (!isRecord(event)) return undefined
    if (event.type === 'message_start' && isRecord(event.message)) this.addUsage(event.message.usage)
    else if (event.type === 'message_delta') this.addUsage(event.usage)
    else if (event.type === 'message_stop') this.stopped = true
    else if (event.type === 'error') this.streamError = mapUpstreamError(200, data)
    else if (event.type === 'content_block_delta' && isRecord(event.delta)) this.readDelta(event.delta)
    else if (event.type === 'content_block_start' && isRecord(event.content_block)) {
      if (event.content_block.type === 'tool_use') this.answered = true
    }
    return event
  }

  private readDelta(delta: Json): void {
    const text = delta.text ?? delta.thinking ?? delta.partial_json
    if (typeof text !== 'string') return
    this.answered = true
    this.completionTextLength += text.length
    if (this.completionText.length < TEXT_CAP) {
      this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
    }
  }

  /** message_start's usage, then message_delta's counts over it (output_tokens is cumulative). */
  private addUsage(raw: unknown): void {
    if (!isRecord(raw)) return
    for (const [key, value] of Object.entries(raw)) if (value !== null) this.rawUsage[key] = value
    this.usage = anthropicUsage(this.rawUsage)
  }
}

export class AnthropicNativeStream implements StreamTransformer {
  keepAlives = 0
  private readonly reader = new AnthropicEventReader()
  private output = ''
  private readonly parser = new SseParser(
    (event) => this.onEvent(event),
    (comment) => {
      this.keepAlives += 1
      this.output += `:${comment}\n\n`
    },
  )

  get usage() {
    return this.reader.usage
  }
  get completionText() {
    return this.reader.completionText
  }
  get completionTextLength() {
    return this.reader.completionTextLength
  }
  get upstreamCompleted() {
    return this.reader.stopped
  }
  get answered() {
    return this.reader.answered
  }
  get streamError() {
    return this.reader.streamError
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete && !this.reader.stopped) {
      this.reader.stopped = true
      this.output += MESSAGE_STOP_EVENT
    }
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onEvent(event: SseEvent): void {
    if (this.reader.stopped) return
    const json = this.reader.read(event.data)
    if (!json) return
    if (json.type === 'ping') this.keepAlives += 1
    const name = typeof json.type === 'string' ? json.type : (event.event ?? 'message')
    this.output += `event: ${name}\ndata: ${event.data.replaceAll('\n', '')}\n\n`
  }
}
