import { request } from 'undici'
import { AppError } from '../http/errors.ts'

const TIMEOUT_MS = 10_000

export interface ProviderCall {
  /** The provider's name for messages ("GitHub"). */
  provider: string
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  json?: unknown
  form?: Record<string, string>
}

/**
 * One HTTP call to an identity provider, answered as parsed JSON. The body is returned whatever the
 * status, so the caller can read the provider's own error; a network failure, a timeout or a body
 * that is not JSON becomes a "could not reach" error without details (they may name secrets).
 */
export async function callProvider(
  call: ProviderCall,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'one-api',
    ...call.headers,
  }
  let body: string | undefined
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(call.json)
  } else if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(call.form).toString()
  }
  try {
    const response = await request(call.url, {
      method: call.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    })
    const parsed = (await response.body.json()) as unknown
    if (!parsed || typeof parsed !== 'object') throw new Error('not a JSON object')
    return { status: response.statusCode, body: parsed as Record<string, unknown> }
  } catch {
    throw new AppError('service_unavailable', `Could not reach ${call.provider}: please try again later`)
  }
}

/** A string field of a provider's answer, or '' (numbers are turned into text). */
export function textField(body: Record<string, unknown> | undefined, name: string): string {
  const value = body?.[name]
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return ''
}
