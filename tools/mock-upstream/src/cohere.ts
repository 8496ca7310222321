/**
 * Cohere's v2 API: POST /v2/chat (JSON or its event stream, a function call when the request has
 * tools), /v2/embed and /v2/rerank, with the same deterministic usage as the OpenAI side (input words,
 * 5 pieces) reported as `usage.tokens` / `meta.billed_units`, and errors as Cohere writes them
 * (`{"id","message"}`). Refuses what Cohere refuses: no messages, an embed request without
 * input_type, a rerank without query or documents.
 * https://docs.cohere.com/reference/chat
 * https://docs.cohere.com/docs/streaming
 * https://docs.cohere.com/reference/embed
 * https://docs.cohere.com/reference/rerank
 */
import type { ServerResponse } from 'node:http'
import { script } from './chat.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import type { Json } from './json.ts'
import { writeStream } from './stream-writer.ts'
import { completionPieces, generatedText, piece, promptTokensOf } from './usage-rules.ts'

const ARGUMENT_PIECES = ['{"', 'mock', '":', 'true', '}']

const MESSAGES: Record<number, string> = {
  400: 'invalid request: mock upstream refused the request',
  401: 'invalid api token',
  404: "model '{model}' not found, make sure the correct model ID was used and that you have access to the model.",
  429: 'You are using a Trial key, which is limited to 10 API calls / minute.',
  500: 'internal server error, this has been reported to our developers.',
}

export function sendCohereError(
  response: ServerResponse,
  status: number,
  model: string,
  body?: unknown,
): void {
  const message = (MESSAGES[status] ?? `mock upstream error ${status}`).replace('{model}', model)
  const text =
    body === undefined
      ? JSON.stringify({ id: 'mock-error', message })
      : typeof body === 'string'
        ? body
        : JSON.stringify(body)
  sendJson(response, status, text)
}

function toolName(json: Json): string | undefined {
  const tools = Array.isArray(json.tools) ? (json.tools as Json[]) : []
  if (tools.length === 0 || json.tool_choice === 'NONE') return undefined
  const fn = tools[0]?.function as Json | undefined
  return typeof fn?.name === 'string' ? fn.name : 'mock_tool'
}

const usageOf = (input: number, output: number) => ({
  billed_units: { input_tokens: input, output_tokens: output },
  tokens: { input_tokens: input, output_tokens: output },
})

function chatStream(tool: string | undefined, pieces: number, finish: string, usage: Json) {
  const events: Json[] = [
    {
      id: 'mock-cohere',
      type: 'message-start',
      delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
    },
  ]
  if (tool) {
    events.push({
      type: 'tool-call-start',
      index: 0,
      delta: {
        message: {
          tool_calls: { id: 'mock_call_0', type: 'function', function: { name: tool, arguments: '' } },
        },
      },
    })
    for (const argument of ARGUMENT_PIECES)
      events.push({
        type: 'tool-call-delta',
        index: 0,
        delta: { message: { tool_calls: { function: { arguments: argument } } } },
      })
    events.push({ type: 'tool-call-end', index: 0 })
  } else {
    events.push({
      type: 'content-start',
      index: 0,
      delta: { message: { content: { type: 'text', text: '' } } },
    })
    for (let index = 0; index < pieces; index += 1)
      events.push({
        type: 'content-delta',
        index: 0,
        delta: { message: { content: { text: piece(index) } } },
      })
    events.push({ type: 'content-end', index: 0 })
  }
  events.push({ type: 'message-end', delta: { finish_reason: finish, usage } })
  return script(events.length, (index) => {
    const event = events[index]!
    return `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`
  })
}

export function handleCohereChat(response: ServerResponse, json: Json, model: string, faults: FaultPlan) {
  if (!Array.isArray(json.messages) || json.messages.length === 0)
    return sendCohereError(response, 400, model, {
      id: 'mock-error',
      message: 'invalid request: messages must not be empty',
    })
  const tool = toolName(json)
  const { pieces, finishReason } = completionPieces(json, faults.chunks)
  const finish = tool ? 'TOOL_CALL' : finishReason === 'length' ? 'MAX_TOKENS' : 'COMPLETE'
  const output = tool ? ARGUMENT_PIECES.length : pieces
  const usage = usageOf(faults.promptTokens ?? promptTokensOf(json), output)
  if (json.stream === true) return writeStream(response, chatStream(tool, pieces, finish, usage), faults)
  const message: Json = tool
    ? {
        role: 'assistant',
        tool_plan: 'I will call the tool.',
        tool_calls: [
          {
            id: 'mock_call_0',
            type: 'function',
            function: { name: tool, arguments: ARGUMENT_PIECES.join('') },
          },
        ],
      }
    : { role: 'assistant', content: [{ type: 'text', text: generatedText(pieces) }] }
  sendJson(response, 200, JSON.stringify({ id: 'mock-cohere', finish_reason: finish, message, usage }))
}

export function handleCohereEmbed(response: ServerResponse, json: Json, model: string) {
  if (typeof json.input_type !== 'string')
    return sendCohereError(response, 400, model, {
      id: 'mock-error',
      message: 'invalid request: valid input_type must be provided with the provided model',
    })
  const texts = Array.isArray(json.texts) ? json.texts.map(String) : []
  const embeddings = texts.map((_, position) =>
    Array.from({ length: 4 }, (_, index) => (position + 1) / (index + 2)),
  )
  const words = texts.reduce((sum, text) => sum + text.trim().split(/\s+/).filter(Boolean).length, 0)
  sendJson(
    response,
    200,
    JSON.stringify({
      id: 'mock-embed',
      texts,
      embeddings: { float: embeddings },
      meta: { api_version: { version: '2' }, billed_units: { input_tokens: Math.max(1, words) } },
      response_type: 'embeddings_by_type',
    }),
  )
}

/** Documents ranked by how many words of the query they contain (ties: the earlier first). */
export function handleCohereRerank(response: ServerResponse, json: Json, model: string) {
  if (typeof json.query !== 'string' || !Array.isArray(json.documents) || json.documents.length === 0)
    return sendCohereError(response, 400, model, {
      id: 'mock-error',
      message: 'invalid request: query and documents are required',
    })
  const words = json.query.toLowerCase().split(/\s+/).filter(Boolean)
  const results = json.documents
    .map((document, index) => {
      const text = String(
        typeof document === 'object' && document !== null ? (document as Json).text : document,
      ).toLowerCase()
      const hits = words.filter((word) => text.includes(word)).length
      return { index, relevance_score: Math.round((hits / Math.max(1, words.length)) * 1e6) / 1e6 }
    })
    .sort((left, right) => right.relevance_score - left.relevance_score || left.index - right.index)
    .slice(0, typeof json.top_n === 'number' ? json.top_n : undefined)
  sendJson(
    response,
    200,
    JSON.stringify({
      id: 'mock-rerank',
      results,
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    }),
  )
}

/**
 * POST /v1/rerank of an OpenAI-compatible rerank server (Jina's shape, which vLLM shares): the
 * same ranking, `document` when return_documents is not false, `usage.total_tokens` the words of the
 * query and documents.
 * https://jina.ai/reranker/
 */
export function handleJinaRerank(response: ServerResponse, json: Json, model: string) {
  if (typeof json.query !== 'string' || !Array.isArray(json.documents) || json.documents.length === 0)
    return sendJson(response, 422, JSON.stringify({ detail: 'query and documents are required' }))
  const words = json.query.toLowerCase().split(/\s+/).filter(Boolean)
  const texts = json.documents.map((document) =>
    String(typeof document === 'object' && document !== null ? (document as Json).text : document),
  )
  const results = texts
    .map((text, index) => {
      const hits = words.filter((word) => text.toLowerCase().includes(word)).length
      const score = Math.round((hits / Math.max(1, words.length)) * 1e6) / 1e6
      return {
        index,
        ...(json.return_documents === false ? {} : { document: { text } }),
        relevance_score: score,
      }
    })
    .sort((left, right) => right.relevance_score - left.relevance_score || left.index - right.index)
    .slice(0, typeof json.top_n === 'number' ? json.top_n : undefined)
  const tokens = [json.query, ...texts].reduce(
    (sum, text) => sum + text.split(/\s+/).filter(Boolean).length,
    0,
  )
  sendJson(response, 200, JSON.stringify({ model, usage: { total_tokens: tokens }, results }))
}
