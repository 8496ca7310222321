import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PassThrough } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../../app-context.ts'
import { REQUEST_ID, RelayFixture } from '../../testing/relay-fixture.ts'
import type { RelayServices } from '../relay-services.ts'
import { createRelayFront } from './relay-front.ts'
import { readRequestBody } from './request-reader.ts'

const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })

/** A raw POST whose declared Content-Length may differ from what is sent. */
function postDeclaring(url: string, declaredLength: number, sent: string) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>(
    (resolve, reject) => {
      const request = httpRequest(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': declaredLength } },
        (response) => {
          let body = ''
          response.on('data', (chunk) => {
            body += chunk
          })
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
          )
        },
      )
      request.on('error', reject)
      request.write(sent)
    },
  )
}

describe('relay front', () => {
  let fixture: RelayFixture
  let proxied: RelayFixture
  let key: string

  beforeAll(async () => {
    fixture = await RelayFixture.start('sqlite')
    await fixture.addChannel({ models: ['gpt-4o-mini'] })
    key = (await fixture.createToken()).key
    proxied = await RelayFixture.start('sqlite', { TRUST_PROXY: 'true' })
    await proxied.addChannel({ models: ['gpt-4o-mini'] })
  })
  afterAll(async () => {
    await fixture?.close()
    await proxied?.close()
  })

  it('refuses a body declared larger than 64 MB with 413 before reading it, calling no upstream', async () => {
    const before = fixture.mock.requests.length
    const answer = await postDeclaring(
      `${fixture.baseUrl}/v1/chat/completions`,
      65 * 1024 * 1024,
      '{"model":',
    )
    expect(answer.status).toBe(413)
    expect(answer.headers[REQUEST_ID]).toBeTruthy()
    const error = JSON.parse(answer.body).error
    expect(error.code).toBe('request_too_large')
    expect(error.message).toContain('too large')
    expect(fixture.mock.requests.length).toBe(before)
  })

  it("answers with the caller's origin for CORS, on success and on errors", async () => {
    const headers = { 'content-type': 'application/json', origin: 'https://app.example' }
    const served = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${key}` },
      body: chatBody,
    })
    expect(served.status).toBe(200)
    expect(served.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const refused = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: chatBody,
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(refused.headers.get('vary')).toBe('origin')
    // The /v1 routes Fastify serves send the same headers, preflights included.
    const preflight = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const models = await fetch(`${fixture.baseUrl}/v1/models`, {
      headers: { origin: 'https://app.example', authorization: `Bearer ${key}` },
    })
    expect(models.status).toBe(200)
    expect(models.headers.get('access-control-allow-origin')).toBe('https://app.example')
    // The billing dashboard too: a browser sends a preflight before its GET with Authorization (a 404).
    const dashboard = await fetch(`${fixture.baseUrl}/dashboard/billing/subscription`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(dashboard.status).toBe(204)
    expect(dashboard.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(dashboard.headers.get('access-control-allow-headers')).toBe('authorization')
  })

  it('logs the X-Forwarded-For client only when TRUST_PROXY says the proxy is trusted', async () => {
    const send = async (target: RelayFixture, tokenKey: string) => {
      const response = await fetch(`${target.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${tokenKey}`,
          'x-forwarded-for': '203.0.113.7',
        },
        body: chatBody,
      })
      expect(response.status).toBe(200)
      const requestId = response.headers.get(REQUEST_ID) ?? ''
      const [log] = await target.waitForLogs({ requestId }, 1)
      return log?.ip
    }
    expect(await send(proxied, (await proxied.createToken()).key)).toBe('203.0.113.7')
    expect(await send(fixture, key)).not.toBe('203.0.113.7')
  })

  it('serves the engines path with the model taken from the URL', async () => {
    const response = await fetch(`${fixture.baseUrl}/v1/engines/text-embedding-3-small/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ input: 'hello' }),
    })
    // No channel serves the embeddings model here: the model was read from the path.
    expect(response.status).toBe(503)
    expect((await response.json()).error.message).toContain('text-embedding-3-small')
  })
})

describe('relay front while shutting down', () => {
  it('refuses new relay requests with 503 and closes the connection', async () => {
    const context = { config: { TRUST_PROXY: false } } as unknown as AppContext
    const lines: Array<{ fields: Record<string, unknown>; message: string }> = []
    const logger = {
      level: 'info',
      info: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
    } as unknown as FastifyBaseLogger
    const front = createRelayFront(context, {} as RelayServices, logger)
    const server = createServer((request, response) => {
      if (!front.handle(request, response)) response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      front.close()
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        body: chatBody,
      })
      expect(response.status).toBe(503)
      expect(response.headers.get('connection')).toBe('close')
      expect((await response.json()).error.code).toBe('shutting_down')
      // Each relay request is logged once, as Fastify logs its own routes at level info.
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(lines).toHaveLength(1)
      expect(lines[0]?.message).toBe('relay request completed')
      expect(lines[0]?.fields).toMatchObject({ res: { statusCode: 503 }, req: { method: 'POST' } })
      // Anything that is not a relayed POST is left to the next handler.
      expect((await fetch(`http://127.0.0.1:${port}/v1/models`)).status).toBe(404)
    } finally {
      server.close()
    }
  })
})

describe('request body reader', () => {
  const fakeRequest = (headers: Record<string, string> = {}) =>
    Object.assign(new PassThrough(), { headers }) as unknown as IncomingMessage & PassThrough

  it('joins the chunks of a body within the limit', async () => {
    const request = fakeRequest()
    const body = new Promise((resolve) => readRequestBody(request, 10, resolve))
    request.write('abc')
    request.end('def')
    expect(String(await body)).toBe('abcdef')
  })

  it('refuses a chunked body once it passes the limit, and only once', async () => {
    const request = fakeRequest()
    const answers: unknown[] = []
    readRequestBody(request, 5, (body) => answers.push(body))
    request.write('abc')
    request.write('def')
    request.end('ghi')
    await new Promise((resolve) => setImmediate(resolve))
    expect(answers).toEqual(['too-large'])
  })
})
