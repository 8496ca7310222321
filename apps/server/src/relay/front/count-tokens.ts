/**
 * `POST /v1/messages/count_tokens` and Gemini's `POST /v1beta/models/{model}:countTokens`: the
 * input tokens of a Messages or GenerateContent request, counted by the gateway with the
 * tokenizer it bills local counts with (no upstream call, nothing billed), for the token of the
 * API's key header (`x-api-key`, `x-goog-api-key` or `?key=`) or a Bearer header. Answers
 * `{"input_tokens": N}` as Anthropic does, `{"totalTokens": N}` as Google does.
 * https://docs.anthropic.com/en/api/messages-count-tokens
 * https://ai.google.dev/api/tokens#method:-models.counttokens
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type ChatPromptMessage, countChatPromptTokens } from '../../billing/token-counting/chat-tokens.ts'
import { CountBudget } from '../../billing/token-counting/count-tokens.ts'
import { generateRequestId } from '../../http/request-id.ts'
import { RelayError } from '../auth/relay-error.ts'
import { authenticateRelay, checkModelAllowed } from '../auth/token-auth.ts'
import { clientAuthorization, readGeminiBody, readMessagesBody } from '../pipeline/client-api.ts'
import type { RelayServices } from '../relay-services.ts'
import { sendAnswer, sendRelayErrorAnswer } from './client-response.ts'
import { readRequestBody } from './request-reader.ts'

export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens'
/** A count request carries a prompt, never an answer's worth of media. */
const COUNT_BODY_LIMIT = 32 * 1024 * 1024

export function createCountTokensHandler(
  services: RelayServices,
  clientIp: (request: IncomingMessage) => string,
): (request: IncomingMessage, response: ServerResponse, api: CountingApi, pathModel?: string) => void {
  return (request, response, api, pathModel = '') => {
    const requestId = generateRequestId()
    readRequestBody(request, COUNT_BODY_LIMIT, (body) => {
      count(services, request, body, clientIp(request), api, pathModel).then(
        (tokens) => {
          const answer = api === 'gemini' ? { totalTokens: tokens } : { input_tokens: tokens }
          sendAnswer(response, requestId, 200, 'application/json', JSON.stringify(answer))
        },
        (error: unknown) => {
          const refusal =
            error instanceof RelayError
              ? error
              : new RelayError(500, 'Internal error of the gateway', 'internal_error')
          sendRelayErrorAnswer(response, requestId, refusal, api)
        },
      )
    })
  }
}

type CountingApi = 'anthropic' | 'gemini'

/** The chat translation of the request to count. */
function chatFacts(api: CountingApi, body: Buffer, model: string) {
  if (api === 'anthropic') {
    // A count request has no max_tokens; the Messages checks want one.
    const withLimit = Buffer.from(JSON.stringify({ max_tokens: 1, ...parseObject(body) }))
    return readMessagesBody(withLimit, 'application/json').facts
  }
  // Google takes the request itself or wrapped as `generateContentRequest`.
  const json = parseObject(body)
  const inner = json.generateContentRequest
  const request = typeof inner === 'object' && inner !== null ? inner : json
  const bytes = Buffer.from(JSON.stringify(request))
  return readGeminiBody(bytes, 'application/json', { model, stream: false, sse: false }).facts
}

async function count(
  services: RelayServices,
  request: IncomingMessage,
  body: Buffer | 'too-large',
  ip: string,
  api: CountingApi,
  pathModel: string,
): Promise<number> {
  const caller = await authenticateRelay(
    services.cache,
    clientAuthorization(request.headers, api, request.url),
    ip,
  )
  if (body === 'too-large') {
    throw new RelayError(413, 'The request body is too large', 'request_too_large', 'invalid_request_error')
  }
  const facts = chatFacts(api, body, pathModel)
  checkModelAllowed(caller.token, facts.model)
  const chat = facts.json!
  return countChatPromptTokens(chat.messages as ChatPromptMessage[], facts.model, chat.tools, {
    approximate: false,
    budget: new CountBudget(),
  })
}

function parseObject(body: Buffer): Record<string, unknown> {
  try {
    const json = JSON.parse(body.toString('utf8'))
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json
  } catch {
    // answered below
  }
  throw new RelayError(
    400,
    'The request body must be a JSON object',
    'invalid_request',
    'invalid_request_error',
  )
}
