/**
 * Tencent Cloud API 3.0 as Hunyuan's endpoint checks and answers it: `POST /` with X-TC-Action
 * ChatCompletions, the TC3-HMAC-SHA256 signature recomputed from the signed headers, the body and
 * the timestamp (refused beyond 5 minutes of skew), errors as HTTP 200 with Response.Error; text
 * or tool-call answers, JSON or the event stream with capitalised members and running usage.
 * https://cloud.tencent.com/document/api/1729/101843
 * https://cloud.tencent.com/document/api/1729/105701
 */
import { createHash, createHmac, randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { sendJson } from '../errors.ts'
import type { FaultPlan } from '../faults.ts'
import type { Json } from '../json.ts'
import { writeStream } from '../stream-writer.ts'
import { completionPieces, generatedText, piece } from '../usage-rules.ts'
import { TENCENT_KEYS } from './credentials.ts'
import type { Refusal } from './zhipu.ts'

const secretKeys = new Map(
  TENCENT_KEYS.map((key) => key.split('|') as [string, string, string]).map(([, id, secret]) => [id, secret]),
)
const MAX_SKEW_SECONDS = 300
const NOTE = '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记'

export function tencentError(code: string, message: string): Refusal {
  return {
    status: 200,
    body: JSON.stringify({ Response: { Error: { Code: code, Message: message }, RequestId: randomUUID() } }),
  }
}

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name]
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
}

const AUTHORIZATION =
  /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/

export function refuseTencentAuth(
  headers: IncomingHttpHeaders,
  body: Buffer,
  nowSeconds = Date.now() / 1000,
): Refusal | undefined {
  const match = AUTHORIZATION.exec(header(headers, 'authorization'))
  if (!match) return tencentError('AuthFailure.InvalidAuthorization', 'Authorization 不符合腾讯云API规范。')
  const [, secretId, date, service, signedHeaders, signature] = match as unknown as string[]
  const secretKey = secretKeys.get(secretId!)
  if (!secretKey) return tencentError('AuthFailure.SecretIdNotFound', '密钥不存在。')
  const timestamp = Number(header(headers, 'x-tc-timestamp'))
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > MAX_SKEW_SECONDS) {
    return tencentError('AuthFailure.SignatureExpire', '签名过期。Timestamp 和服务器时间相差不得超过五分钟。')
  }
  const names = signedHeaders!.split(';')
  if (!names.includes('content-type') || !names.includes('host')) {
    return tencentError('AuthFailure.InvalidAuthorization', 'SignedHeaders 必须包含 content-type 和 host。')
  }
  const canonicalHeaders = names
    .map((name) => `${name}:${header(headers, name).trim().toLowerCase()}\n`)
    .join('')
  const hashedPayload = createHash('sha256').update(body).digest('hex')
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${hashedPayload}`
  const scope = `${date}/${service}/tc3_request`
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`
  let key: Buffer = createHmac('sha256', `TC3${secretKey}`).update(date!).digest()
  key = createHmac('sha256', key).update(service!).digest()
  key = createHmac('sha256', key).update('tc3_request').digest()
  const expected = createHmac('sha256', key).update(toSign).digest('hex')
  const dateOfTimestamp = new Date(timestamp * 1000).toISOString().slice(0, 10)
  if (expected !== signature || date !== dateOfTimestamp || service !== 'hunyuan') {
    return tencentError(
      'AuthFailure.SignatureFailure',
      'The provided credentials could not be validated. Please check your signature is correct.',
    )
  }
  if (header(headers, 'x-tc-action') !== 'ChatCompletions') {
    return tencentError('InvalidAction', '接口不存在。')
  }
  return undefined
}

const words = (text: unknown): number =>
  typeof text === 'string' && text.trim() !== '' ? text.trim().split(/\s+/).length : 0

function promptTokens(json: Json): number {
  let count = 0
  for (const message of Array.isArray(json.Messages) ? json.Messages : []) {
    const entry = message as Json
    count += words(entry.Content)
    for (const part of Array.isArray(entry.Contents) ? entry.Contents : [])
      count += words((part as Json).Text)
  }
  return Math.max(1, count)
}

function toolName(json: Json): string | undefined {
  if (!Array.isArray(json.Tools) || json.Tools.length === 0 || json.ToolChoice === 'none') return undefined
  const custom = json.CustomTool as Json | undefined
  const tool = (custom ?? json.Tools[0]) as Json
  return String((tool.Function as Json | undefined)?.Name ?? '')
}

export function handleHunyuan(response: ServerResponse, json: Json, faults: FaultPlan): Promise<void> | void {
  if (typeof json.Model !== 'string' || !Array.isArray(json.Messages) || json.Messages.length === 0) {
    const refusal = tencentError('InvalidParameter', 'Model 和 Messages 不能为空。')
    return sendJson(response, refusal.status, refusal.body)
  }
  const id = randomUUID()
  const created = Math.floor(Date.now() / 1000)
  const prompt = promptTokens(json)
  const tool = toolName(json)
  const { pieces } = completionPieces({ max_tokens: json.MaxTokens }, faults.chunks)
  const completion = tool ? 5 : pieces
  const usage = (done: number) => ({
    PromptTokens: prompt,
    CompletionTokens: done,
    TotalTokens: prompt + done,
  })
  const call = {
    Id: `call_${id.slice(0, 8)}`,
    Type: 'function',
    Function: { Name: tool, Arguments: '{"mock":true}' },
  }
  if (json.Stream !== true) {
    const message = tool
      ? { Role: 'assistant', Content: '', ToolCalls: [call] }
      : { Role: 'assistant', Content: generatedText(pieces) }
    const answer = {
      Note: NOTE,
      Choices: [{ Message: message, FinishReason: tool ? 'tool_calls' : 'stop' }],
      Created: created,
      Id: id,
      Usage: usage(completion),
      RequestId: id,
    }
    return sendJson(response, 200, JSON.stringify({ Response: answer }))
  }
  const event = (delta: Json, finish: string, done: number) =>
    `data: ${JSON.stringify({ Note: NOTE, Choices: [{ Delta: { Role: 'assistant', ...delta }, FinishReason: finish }], Created: created, Id: id, Usage: usage(done) })}\n\n`
  const events = tool
    ? [
        event({ Content: '', ToolCalls: [{ ...call, Index: 0 }] }, '', 5),
        event({ Content: '' }, 'tool_calls', 5),
      ]
    : [
        ...Array.from({ length: pieces }, (_, index) => event({ Content: piece(index) }, '', index + 1)),
        event({ Content: '' }, 'stop', pieces),
      ]
  return writeStream(response, { length: events.length, event: (index) => events[index]! }, faults)
}
