/**
 * The frame of a stream transformer whose upstream sends JSON in server-sent events: it parses the
 * events, turns the upstream's comment lines into keep-alives, passes each event's JSON object to
 * onData (data that is not a JSON object is not an event of the API and is skipped), and leaves
 * the OpenAI chunks, the usage chunk and the one [DONE] to its ChatChunkWriter.
 */
import type { RelayRequest } from '../adaptor.ts'
import { ChatChunkWriter, ChatWriterStream } from './chat-chunks.ts'
import { isRecord, type Json } from './json.ts'
import { type SseEvent, SseParser } from './sse.ts'
import type { Usage } from './usage.ts'

export abstract class SseChatStream extends ChatWriterStream {
  private readonly parser = new SseParser(
    (event) => this.onEvent(event),
    () => this.writer.keepAlive(),
  )

  constructor(request: RelayRequest, usageOf?: (usage: Usage) => Json) {
    super(new ChatChunkWriter(request, usageOf))
  }

  /** One event's JSON object (and the event itself, for its name and raw data). */
  protected abstract onData(data: Json, event: SseEvent): void

  /** The upstream's end without its end marker, when the relay deems the answer complete. */
  protected onUpstreamEnd(): void {
    this.writer.close()
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.writer.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete) this.onUpstreamEnd()
    return this.writer.take()
  }

  private onEvent(event: SseEvent): void {
    let data: unknown
    try {
      data = JSON.parse(event.data)
    } catch {
      return // not an event of the API
    }
    if (isRecord(data)) this.onData(data, event)
  }
}
