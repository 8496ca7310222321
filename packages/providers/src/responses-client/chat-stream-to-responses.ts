/**
 * An OpenAI chat stream (what an OpenAI-format adaptor's transformer writes) as Responses API
 * events, for a `/v1/responses` client served by a channel that speaks chat completions.
 * https://platform.openai.com/docs/api-reference/responses-streaming
 * response.created and response.in_progress first; per output item (reasoning, the message, each
 * function call) output_item.added, its parts and deltas, their done events and output_item.done;
 * response.completed (or .incomplete, .failed) with the whole Response and its usage at the end.
 * Every event carries its sequence_number, counted from 0.
 */
import { ChatStreamBridge } from '../shared/chat-stream-bridge.ts'
import { isRecord, type Json } from '../shared/json.ts'
import {
  finishStatus,
  functionCallItem,
  messageItem,
  reasoningItem,
  responseId,
  responseShell,
  responsesUsage,
  textPart,
} from './response-object.ts'

/** The output item being streamed. */
interface OpenItem {
  kind: string
  index: number
  id: string
  text: string
  callId?: string
  name?: string
}

export class ChatStreamToResponses extends ChatStreamBridge {
  private sequence = 0
  private response: Json | undefined
  private readonly items: Json[] = []
  private open: OpenItem | undefined
  private failure: Json | undefined

  private emit(type: string, data: Json): void {
    const event = { type, ...data, sequence_number: this.sequence++ }
    this.write(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`)
  }

  protected onChunk(chunk: Json): void {
    this.start(chunk)
  }

  private start(chunk: Json): void {
    if (this.response) return
    const id = responseId(chunk.id)
    const created = typeof chunk.created === 'number' ? chunk.created : (this.request.receivedAt ?? 0)
    const model = typeof chunk.model === 'string' ? chunk.model : this.request.mappedModel
    this.response = responseShell(id, created, model, this.request.native?.json ?? {})
    this.emit('response.created', { response: this.response })
    this.emit('response.in_progress', { response: this.response })
  }

  private get baseId(): string {
    return String(this.response?.id ?? 'resp_').slice(5)
  }

  /** Opens an output item of `kind` (closing the one before) unless it is the open one. */
  private openItem(
    kind: string,
    build: (id: string) => Json,
    prefix: string,
    extra: Partial<OpenItem> = {},
  ): OpenItem {
    if (this.open?.kind === kind) return this.open
    this.closeItem()
    const index = this.items.length
    const id = `${prefix}_${this.baseId}_${index}`
    this.items.push({})
    this.open = { kind, index, id, text: '', ...extra }
    this.emit('response.output_item.added', { output_index: index, item: build(id) })
    return this.open
  }

  protected onText(text: string): void {
    const item = this.openItem('message', (id) => messageItem(id, [], 'in_progress'), 'msg')
    if (item.text === '') {
      this.emit('response.content_part.added', {
        item_id: item.id,
        output_index: item.index,
        content_index: 0,
        part: textPart(''),
      })
    }
    item.text += text
    this.emit('response.output_text.delta', {
      item_id: item.id,
      output_index: item.index,
      content_index: 0,
      delta: text,
      logprobs: [],
    })
  }

  protected onReasoning(text: string): void {
    const item = this.openItem('reasoning', (id) => reasoningItem(id, ''), 'rs')
    item.text += text
    this.emit('response.reasoning_text.delta', {
      item_id: item.id,
      output_index: item.index,
      content_index: 0,
      delta: text,
    })
  }

  protected onToolCall(call: Json): void {
    const fn = isRecord(call.function) ? call.function : {}
    const kind = `tool:${call.index ?? 0}`
    const item = this.openItem(
      kind,
      (id) => functionCallItem(id, this.callId(call), String(fn.name ?? ''), '', 'in_progress'),
      'fc',
      { callId: this.callId(call), name: String(fn.name ?? '') },
    )
    if (typeof fn.arguments === 'string' && fn.arguments !== '') {
      item.text += fn.arguments
      this.emit('response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: item.index,
        delta: fn.arguments,
      })
    }
  }

  private callId(call: Json): string {
    return typeof call.id === 'string' && call.id !== ''
      ? call.id
      : `call_${this.baseId}_${this.items.length}`
  }

  /** The done events of the open item, and the item as it ended up in `items`. */
  private closeItem(): void {
    const item = this.open
    if (!item) return
    this.open = undefined
    const at = { item_id: item.id, output_index: item.index }
    let done: Json
    if (item.kind === 'message') {
      this.emit('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] })
      this.emit('response.content_part.done', { ...at, content_index: 0, part: textPart(item.text) })
      done = messageItem(item.id, [textPart(item.text)], 'completed')
    } else if (item.kind === 'reasoning') {
      this.emit('response.reasoning_text.done', { ...at, content_index: 0, text: item.text })
      done = reasoningItem(item.id, item.text)
    } else {
      this.emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.text })
      done = functionCallItem(item.id, item.callId ?? '', item.name ?? '', item.text, 'completed')
    }
    this.items[item.index] = done
    this.emit('response.output_item.done', { output_index: item.index, item: done })
  }

  /** An error inside the upstream's stream: OpenAI's `error` event; the answer ends as failed. */
  protected onError(error: Json): void {
    if (!this.response) this.start({})
    const message = typeof error.message === 'string' ? error.message : 'upstream error'
    const code =
      typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : null
    this.emit('error', { code, message, param: typeof error.param === 'string' ? error.param : null })
    // The Response's error takes only the codes of its own list.
    const limited = this.inner.streamError?.status === 429
    this.failure = { code: limited ? 'rate_limit_exceeded' : 'server_error', message }
  }

  /** The end of the answer: the open item closed, then the Response as it ended. */
  protected onEnd(): void {
    if (!this.response) this.start({})
    this.closeItem()
    const finish = this.failure
      ? { status: 'failed', incomplete_details: null }
      : finishStatus(this.finishReason)
    const response = {
      ...this.response,
      ...finish,
      completed_at: finish.status === 'completed' ? this.response?.created_at : null,
      error: this.failure ?? null,
      output: this.items,
      usage: responsesUsage(this.inner.usage),
    }
    const type = this.failure ? 'response.failed' : `response.${finish.status}`
    this.emit(type, { response })
  }
}
