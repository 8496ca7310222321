/**
 * Xunfei Spark's WebSocket chat API, as channel type 18 calls it. The handshake is checked as
 * Xunfei does: the `authorization` query parameter decoded, its HMAC-SHA256 signature recomputed
 * with the APISecret of its api_key over host, date and request line, and the date within five
 * minutes; a refusal is an HTTP 401/403 with Xunfei's message. The answer is the mock's five
 * pieces, one frame each (status 0, 1, ...), then a last frame (status 2) with the usage; a
 * request offering functions (`payload.functions.text`) is answered with a call of the first, in
 * one last frame, as Spark answers.
 * https://www.xfyun.cn/doc/spark/general_url_authentication.html
 * https://www.xfyun.cn/doc/spark/Web.html
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import { isRecord } from './json.ts'
import { DEFAULT_CHUNKS, piece, promptTokensOf } from './usage-rules.ts'

/** A Spark key the mock always accepts (`APPID|APISecret|APIKey`), besides those given as apiKeys. */
export const SPARK_MOCK_KEY = 'mock-app|mock-secret|mock-api-key'
const CLOCK_SKEW_SECONDS = 300
const PATH = /^\/(v[\d.]+(-\d+K)?\/chat|chat\/(pro-128k|max-32k))$/

interface SparkCredentials {
  appId: string
  apiSecret: string
}

export const isSparkPath = (pathname: string): boolean => PATH.test(pathname)

export class SparkServer {
  private readonly server = new WebSocketServer({ noServer: true })
  /** api_key → its APISecret and APPID. */
  private readonly credentials = new Map<string, SparkCredentials>()

  constructor(apiKeys: readonly string[] | undefined) {
    for (const key of [SPARK_MOCK_KEY, ...(apiKeys ?? [])]) {
      const [appId, apiSecret, apiKey] = key.split('|')
      if (appId && apiSecret && apiKey) this.credentials.set(apiKey, { appId, apiSecret })
    }
  }

  /** Takes an upgrade request of a Spark path: checked, then answered over the socket. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`)
    const refusal = this.refusal(url, request.headers.host ?? '')
    if (refusal) {
      const body = JSON.stringify({ message: refusal.message })
      socket.end(
        `HTTP/1.1 ${refusal.status} ${refusal.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      )
      return
    }
    const appId = this.credentials.get(this.apiKeyOf(url) ?? '')!.appId
    this.server.handleUpgrade(request, socket, head, (client) => {
      client.once('message', (data) => answer(client, String(data), appId))
    })
  }

  close(): void {
    this.server.close()
  }

  private apiKeyOf(url: URL): string | undefined {
    const fields = this.authorizationFields(url)
    return fields?.api_key
  }

  private authorizationFields(url: URL): Record<string, string> | undefined {
    const encoded = url.searchParams.get('authorization')
    if (!encoded) return undefined
    const fields: Record<string, string> = {}
    for (const match of Buffer.from(encoded, 'base64')
      .toString('utf8')
      .matchAll(/(\w+)="([^"]*)"/g)) {
      fields[match[1]!] = match[2]!
    }
    return fields
  }

  private refusal(url: URL, host: string): { status: number; message: string } | undefined {
    const fields = this.authorizationFields(url)
    const date = url.searchParams.get('date')
    if (!fields || !date || url.searchParams.get('host') !== host) {
      return {
        status: 401,
        message:
          'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication',
      }
    }
    const credentials = this.credentials.get(fields.api_key ?? '')
    if (!credentials || fields.algorithm !== 'hmac-sha256' || fields.headers !== 'host date request-line') {
      return { status: 401, message: 'HMAC signature does not match' }
    }
    const expected = createHmac('sha256', credentials.apiSecret)
      .update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`)
      .digest()
    const given = Buffer.from(fields.signature ?? '', 'base64')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { status: 401, message: 'HMAC signature does not match' }
    }
    if (
      Math.abs(Date.parse(date) - Date.now()) > CLOCK_SKEW_SECONDS * 1000 ||
      Number.isNaN(Date.parse(date))
    ) {
      return { status: 403, message: 'HMAC signature cannot be verified' }
    }
    return undefined
  }
}

function answer(client: WebSocket, message: string, appId: string) {
  let frame: unknown
  try {
    frame = JSON.parse(message)
  } catch {
    frame = undefined
  }
  const header = isRecord(frame) && isRecord(frame.header) ? frame.header : {}
  const payload = isRecord(frame) && isRecord(frame.payload) ? frame.payload : {}
  const chat =
    isRecord(frame) && isRecord(frame.parameter) && isRecord(frame.parameter.chat) ? frame.parameter.chat : {}
  const turns =
    isRecord(payload.message) && Array.isArray(payload.message.text) ? payload.message.text : undefined
  const sid = `cht000${Date.now().toString(16)}`
  const error = (code: number, text: string) => {
    client.send(JSON.stringify({ header: { code, message: text, sid, status: 2 } }))
    client.close()
  }
  if (header.app_id !== appId) return error(10313, 'app_id and api_key do not match')
  if (typeof chat.domain !== 'string' || !turns) return error(10163, 'request parameters are invalid')
  const promptTokens = promptTokensOf({ messages: turns })
  const functions =
    isRecord(payload.functions) && Array.isArray(payload.functions.text) ? payload.functions.text : []
  const called = functions.find(isRecord)
  if (called) return callFunction(client, sid, String(called.name), promptTokens)
  for (let index = 0; index < DEFAULT_CHUNKS; index += 1) {
    const choices = {
      status: index === 0 ? 0 : 1,
      seq: index,
      text: [{ content: piece(index), role: 'assistant', index: 0 }],
    }
    client.send(
      JSON.stringify({
        header: { code: 0, message: 'Success', sid, status: index === 0 ? 0 : 1 },
        payload: { choices },
      }),
    )
  }
  const usage = sparkUsage(promptTokens)
  client.send(
    JSON.stringify({
      header: { code: 0, message: 'Success', sid, status: 2 },
      payload: {
        choices: { status: 2, seq: DEFAULT_CHUNKS, text: [{ content: '', role: 'assistant', index: 0 }] },
        usage: { text: usage },
      },
    }),
  )
  client.close()
}

/** The last frame's `payload.usage.text`: the mock's five generated tokens. */
const sparkUsage = (promptTokens: number) => ({
  question_tokens: promptTokens,
  prompt_tokens: promptTokens,
  completion_tokens: DEFAULT_CHUNKS,
  total_tokens: promptTokens + DEFAULT_CHUNKS,
})

/** Arguments of the mock's function calls (five tokens, as the OpenAI mock's tool calls). */
const FUNCTION_ARGUMENTS = '{"mock":true}'

function callFunction(client: WebSocket, sid: string, name: string, promptTokens: number) {
  const item = {
    content: '',
    role: 'assistant',
    content_type: 'text',
    function_call: { arguments: FUNCTION_ARGUMENTS, name },
    index: 0,
  }
  const usage = sparkUsage(promptTokens)
  client.send(
    JSON.stringify({
      header: { code: 0, message: 'Success', sid, status: 2 },
      payload: { choices: { status: 2, seq: 0, text: [item] }, usage: { text: usage } },
    }),
  )
  client.close()
}
