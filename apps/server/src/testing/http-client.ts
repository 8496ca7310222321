/**
 * A small HTTP client for tests: keeps the session cookie like a browser and returns status,
 * headers and the parsed JSON body.
 */
export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

export class ApiClient {
  private cookie = ''

  constructor(
    readonly baseUrl: string,
    private readonly authorization?: string,
  ) {}

  async request<T = any>(
    method: string,
    path: string,
    options: { json?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (this.cookie) headers.cookie = this.cookie
    if (this.authorization) headers.authorization = this.authorization
    let body: string | undefined
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.json)
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = options.raw
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body })
    const setCookie = response.headers.getSetCookie()
    for (const line of setCookie) {
      const [pair] = line.split(';')
      const [name, value] = pair.split('=')
      if (name === 'session') this.cookie = value ? `session=${value}` : ''
      if (/Expires=Thu, 01 Jan 1970/i.test(line) || /Max-Age=0/i.test(line)) this.cookie = ''
    }
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // Non-JSON bodies (the console's HTML) are returned as text.
    }
    return { status: response.status, headers: response.headers, body: parsed as T }
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path)
  }
  post<T = any>(path: string, json?: unknown) {
    return this.request<T>('POST', path, { json })
  }
  put<T = any>(path: string, json?: unknown) {
    return this.request<T>('PUT', path, { json })
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path)
  }

  hasSession(): boolean {
    return this.cookie !== ''
  }

  async login(username: string, password: string): Promise<ApiResponse> {
    const response = await this.post('/api/user/login', { username, password })
    if (response.status !== 200 || response.body?.success !== true)
      throw new Error(`login as ${username} failed: ${JSON.stringify(response.body)}`)
    return response
  }
}

/** Registers a user through the public API and returns a client signed in as them. */
export async function registerAndLogin(
  baseUrl: string,
  username: string,
  password = 'password-123',
): Promise<ApiClient> {
  const client = new ApiClient(baseUrl)
  const registered = await client.post('/api/user/register', { username, password })
  if (registered.status !== 200 || registered.body?.success !== true)
    throw new Error(`register ${username} failed: ${JSON.stringify(registered.body)}`)
  await client.login(username, password)
  return client
}

/** The two things a caller of the management API reads first: the HTTP status and `success`. */
export function outcome(response: { status: number; body?: unknown }): { status: number; success: unknown } {
  return { status: response.status, success: (response.body as { success?: unknown } | undefined)?.success }
}

/** A refused management call, as one-api answers it: HTTP 200 with `success: false`. */
export const REFUSED = { status: 200, success: false } as const
