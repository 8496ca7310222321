/**
 * Ali DashScope's native API, as channel type 17 calls it: text (and multimodal) generation with
 * `result_format: message`, JSON or its event stream (`X-DashScope-SSE: enable`), embeddings, and
 * image synthesis as an asynchronous task (`X-DashScope-Async: enable`) whose state moves
 * PENDING → RUNNING → SUCCEEDED, one step per poll. Errors in DashScope's shape
 * (`{code, message, request_id}`); the key is checked as DashScope does (Bearer).
 * https://help.aliyun.com/zh/model-studio/developer-reference/use-qwen-by-calling-api
 * https://help.aliyun.com/zh/model-studio/developer-reference/text-to-image-api-reference
 */
import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { sendJson } from './errors.ts'
import { isRecord, type Json } from './json.ts'
import { SSE_HEADERS } from './stream-writer.ts'
import { completionPieces, generatedText, piece, promptTokensOf } from './usage-rules.ts'

const TEXT = '/api/v1/services/aigc/text-generation/generation'
const MULTIMODAL = '/api/v1/services/aigc/multimodal-generation/generation'
const EMBEDDING = '/api/v1/services/embeddings/text-embedding/text-embedding'
const IMAGE = '/api/v1/services/aigc/text2image/image-synthesis'
const TASKS = '/api/v1/tasks/'
/** A prompt holding this word makes the image task fail, as DashScope's inspection would. */
export const DASHSCOPE_FAILING_PROMPT = 'forbidden'

interface Task {
  key: string
  polls: number
  count: number
  prompt: string
}

export const isDashScopePath = (pathname: string): boolean => pathname.startsWith('/api/v1/')

function sendDashScopeError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, JSON.stringify({ code, message, request_id: randomUUID() }))
}

/** The DashScope side of the mock: one per server, holding its image tasks. */
export class DashScope {
  private readonly tasks = new Map<string, Task>()

  constructor(private readonly apiKeys: ReadonlySet<string> | undefined) {}

  handle(
    method: string,
    pathname: string,
    headers: IncomingHttpHeaders,
    json: Json | undefined,
    response: ServerResponse,
  ) {
    const key = headers.authorization?.replace(/^Bearer\s+/i, '') ?? ''
    if (key === '' || (this.apiKeys && !this.apiKeys.has(key))) {
      return sendDashScopeError(response, 401, 'InvalidApiKey', 'Invalid API-key provided.')
    }
    if (method === 'GET' && pathname.startsWith(TASKS))
      return this.poll(pathname.slice(TASKS.length), key, response)
    if (method !== 'POST' || !json) {
      return sendDashScopeError(response, 400, 'InvalidParameter', 'The request body must be JSON.')
    }
    if (pathname === TEXT || pathname === MULTIMODAL) return this.generate(headers, json, response)
    if (pathname === EMBEDDING) return this.embed(json, response)
    if (pathname === IMAGE) return this.submit(headers, json, key, response)
    sendDashScopeError(response, 404, 'NotFound', `Not found: ${pathname}`)
  }

  private generate(headers: IncomingHttpHeaders, json: Json, response: ServerResponse) {
    const input = isRecord(json.input) ? json.input : {}
    const parameters = isRecord(json.parameters) ? json.parameters : {}
    if (!Array.isArray(input.messages) || parameters.result_format !== 'message') {
      return sendDashScopeError(
        response,
        400,
        'InvalidParameter',
        'input.messages and result_format message are required',
      )
    }
    const promptTokens = promptTokensOf({ messages: input.messages.map(plainText) })
    const { pieces, finishReason } = completionPieces({ max_tokens: parameters.max_tokens }, undefined)
    const requestId = randomUUID()
    const usage = (output: number) => ({
      input_tokens: promptTokens,
      output_tokens: output,
      total_tokens: promptTokens + output,
    })
    const event = (content: string, reason: string, output: number) =>
      JSON.stringify({
        output: { choices: [{ message: { role: 'assistant', content }, finish_reason: reason }] },
        usage: usage(output),
        request_id: requestId,
      })
    if (headers['x-dashscope-sse'] !== 'enable') {
      return sendJson(response, 200, event(generatedText(pieces), finishReason, pieces))
    }
    // Without incremental_output each event would repeat the whole text so far.
    const incremental = parameters.incremental_output === true
    response.writeHead(200, SSE_HEADERS)
    for (let index = 0; index <= pieces; index += 1) {
      const last = index === pieces
      const content = last ? '' : incremental ? piece(index) : generatedText(index + 1)
      const data = event(content, last ? finishReason : 'null', last ? pieces : index + 1)
      response.write(`id:${index + 1}\nevent:result\n:HTTP_STATUS/200\ndata:${data}\n\n`)
    }
    response.end()
  }

  private embed(json: Json, response: ServerResponse) {
    const input = isRecord(json.input) ? json.input : {}
    if (!Array.isArray(input.texts))
      return sendDashScopeError(response, 400, 'InvalidParameter', 'input.texts is required')
    const embeddings = input.texts.map((_, index) => ({ text_index: index, embedding: [0.1, -0.2, 0.3] }))
    const tokens = promptTokensOf({ input: input.texts })
    sendJson(
      response,
      200,
      JSON.stringify({ output: { embeddings }, usage: { total_tokens: tokens }, request_id: randomUUID() }),
    )
  }

  private submit(headers: IncomingHttpHeaders, json: Json, key: string, response: ServerResponse) {
    // DashScope's answer to a synchronous call of an asynchronous-only service.
    if (headers['x-dashscope-async'] !== 'enable') {
      return sendDashScopeError(
        response,
        403,
        'AccessDenied',
        'current user api does not support synchronous calls',
      )
    }
    const input = isRecord(json.input) ? json.input : {}
    const parameters = isRecord(json.parameters) ? json.parameters : {}
    if (typeof input.prompt !== 'string' || input.prompt === '') {
      return sendDashScopeError(response, 400, 'InvalidParameter', 'input.prompt is required')
    }
    const id = randomUUID()
    const count = typeof parameters.n === 'number' ? Math.min(Math.max(parameters.n, 1), 4) : 1
    this.tasks.set(id, { key, polls: 0, count, prompt: input.prompt })
    sendJson(
      response,
      200,
      JSON.stringify({ output: { task_status: 'PENDING', task_id: id }, request_id: randomUUID() }),
    )
  }

  private poll(id: string, key: string, response: ServerResponse) {
    const task = this.tasks.get(decodeURIComponent(id))
    // Another key's task is as unknown as a made-up id.
    if (!task || task.key !== key) {
      const output = { task_id: id, task_status: 'UNKNOWN' }
      return sendJson(response, 200, JSON.stringify({ output, request_id: randomUUID() }))
    }
    task.polls += 1
    const output: Json = { task_id: id, task_status: task.polls === 1 ? 'RUNNING' : 'SUCCEEDED' }
    if (task.polls >= 2 && task.prompt.includes(DASHSCOPE_FAILING_PROMPT)) {
      Object.assign(output, {
        task_status: 'FAILED',
        code: 'DataInspectionFailed',
        message: 'Input data may contain inappropriate content.',
      })
    } else if (task.polls >= 2) {
      output.results = Array.from({ length: task.count }, (_, index) => ({
        url: `https://mock-upstream.invalid/dashscope/${id}/${index}.png`,
      }))
    }
    const usage = output.task_status === 'SUCCEEDED' ? { usage: { image_count: task.count } } : {}
    sendJson(response, 200, JSON.stringify({ request_id: randomUUID(), output, ...usage }))
  }
}

/** A message's text for the word count, multimodal parts (`[{text}, {image}]`) included. */
function plainText(message: unknown): Json {
  if (!isRecord(message) || !Array.isArray(message.content)) return isRecord(message) ? message : {}
  const text = message.content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .join(' ')
  return { ...message, content: text }
}
