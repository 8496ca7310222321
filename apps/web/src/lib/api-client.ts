import type { Envelope } from '@one-api/contracts'
import { i18n } from '@/i18n/i18n.ts'
import { navigateTo } from './navigation.ts'
import { notifyError, notifyInfo } from './notify.ts'
import { clearStoredUser } from './user-store.ts'

/** A failed call; the user has already been told (unless the caller asked to stay quiet). */
export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached; 200 when it answered success=false. */
  readonly status: number

  constructor(message: string, status: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
  }
}

export interface RequestOptions {
  body?: unknown
  /** false when the caller shows its own message (the status load, the OAuth callbacks). */
  notify?: boolean
  /** The login call answers 401 for a wrong password: that is not an expired session. */
  redirectOnUnauthorized?: boolean
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

async function readEnvelope<T>(response: Response): Promise<Envelope<T> | undefined> {
  try {
    const value: unknown = await response.json()
    if (typeof value === 'object' && value !== null && 'success' in value) return value as Envelope<T>
  } catch {
    // Not JSON (a proxy's error page, an empty body): handled by the caller as a bad reply.
  }
  return undefined
}

/** The message shown for a failed call, by HTTP status (429, 500 and 405 have their own). */
function notifyHttpError(status: number, message: string): void {
  if (status === 429) notifyError(i18n.t('errors.tooManyRequests'))
  else if (status === 500) notifyError(i18n.t('errors.internal'))
  else if (status === 405) notifyInfo(i18n.t('errors.demoSite'))
  else notifyError(i18n.t('errors.http', { message }))
}

function onSessionExpired(): void {
  clearStoredUser()
  navigateTo('/login?expired=true')
}

/** Calls the management API: JSON in and out, the session cookie of this origin, a toast for each failure. */
export async function apiRequest<T>(
  method: Method,
  url: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  const { body, notify = true, redirectOnUnauthorized = true } = options
  let response: Response
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (notify) notifyError(i18n.t('errors.http', { message }))
    throw new ApiError(message, 0)
  }
  const envelope = await readEnvelope<T>(response)
  if (!response.ok) {
    const message = envelope?.message || response.statusText || String(response.status)
    if (response.status === 401 && redirectOnUnauthorized) onSessionExpired()
    else if (notify) notifyHttpError(response.status, message)
    throw new ApiError(message, response.status)
  }
  if (!envelope) {
    const message = i18n.t('errors.badReply')
    if (notify) notifyError(i18n.t('errors.http', { message }))
    throw new ApiError(message, response.status)
  }
  if (!envelope.success) {
    const message = envelope.message || i18n.t('errors.unknown')
    if (notify) notifyError(message)
    throw new ApiError(message, response.status)
  }
  return envelope
}

export async function apiGet<T>(url: string, options?: Omit<RequestOptions, 'body'>): Promise<T> {
  return (await apiRequest<T>('GET', url, options)).data as T
}

export async function apiPost<T>(url: string, body: unknown, options?: RequestOptions): Promise<T> {
  return (await apiRequest<T>('POST', url, { ...options, body })).data as T
}

export async function apiPut<T>(url: string, body: unknown, options?: RequestOptions): Promise<T> {
  return (await apiRequest<T>('PUT', url, { ...options, body })).data as T
}

export async function apiDelete<T>(url: string, options?: Omit<RequestOptions, 'body'>): Promise<T> {
  return (await apiRequest<T>('DELETE', url, options)).data as T
}
