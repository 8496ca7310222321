/**
 * OpenAI-shaped error replies, one per status the fault injection supports.
 * https://platform.openai.com/docs/guides/error-codes
 */
import type { ServerResponse } from 'node:http'

interface ErrorTemplate {
  message: string
  type: string
  code: string | null
}

const TEMPLATES: Record<number, ErrorTemplate> = {
  400: { message: 'Invalid request (mock upstream).', type: 'invalid_request_error', code: null },
  401: {
    message:
      'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  403: {
    message: 'Country, region, or territory not supported',
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
  },
  404: {
    message: 'The model `{model}` does not exist or you do not have access to it.',
    type: 'invalid_request_error',
    code: 'model_not_found',
  },
  429: {
    message:
      'Rate limit reached for {model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: {
    message: 'The engine is currently overloaded, please try again later.',
    type: 'server_error',
    code: null,
  },
}

export function errorBody(status: number, model: string, message?: string): string {
  const template = TEMPLATES[status] ?? {
    message: `Mock upstream error ${status}.`,
    type: status < 500 ? 'invalid_request_error' : 'server_error',
    code: null,
  }
  return JSON.stringify({
    error: {
      message: message ?? template.message.replace('{model}', model),
      type: template.type,
      param: null,
      code: template.code,
    },
  })
}

export function sendError(
  response: ServerResponse,
  status: number,
  model: string,
  customBody?: unknown,
): void {
  const body =
    customBody === undefined
      ? errorBody(status, model)
      : typeof customBody === 'string'
        ? customBody
        : JSON.stringify(customBody)
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  }
  // OpenAI tells rate-limited clients when to come back.
  if (status === 429) headers['retry-after'] = '1'
  response.writeHead(status, headers)
  response.end(body)
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  contentType = 'application/json',
): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) })
  response.end(body)
}
