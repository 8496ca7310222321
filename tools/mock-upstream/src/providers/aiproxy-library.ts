/**
 * AI Proxy's knowledge-base question endpoint as it checks and answers: a known key after Bearer
 * (else 401), the `libraryId` that key may ask (else success false, 404); the answer
 * `{success, answer, documents}` or, streamed, `{content, finish, documents}` events.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { sendJson } from '../errors.ts'
import type { FaultPlan } from '../faults.ts'
import { writeStream } from '../stream-writer.ts'
import { completionPieces, generatedText, piece } from '../usage-rules.ts'
import { AIPROXY_LIBRARY_KEYS } from './credentials.ts'
import type { Refusal } from './zhipu.ts'

const DOCUMENTS = [{ title: 'Mock document', url: 'https://docs.example.com/mock' }]

/** The key checked, then the library it may ask (the body's libraryId). */
export function refuseLibraryAuth(headers: IncomingHttpHeaders, body: Buffer): Refusal | undefined {
  const key = headers.authorization?.replace(/^Bearer\s+/i, '') ?? ''
  const library = AIPROXY_LIBRARY_KEYS[key]
  if (library === undefined) {
    return { status: 401, body: JSON.stringify({ success: false, errCode: 401, errMsg: 'invalid api key' }) }
  }
  let asked: unknown
  try {
    asked = JSON.parse(body.toString('utf8')).libraryId
  } catch {
    asked = undefined
  }
  if (asked !== library)
    return {
      status: 404,
      body: JSON.stringify({ success: false, errCode: 404, errMsg: 'library not found' }),
    }
  return undefined
}

export function handleLibraryAsk(
  response: ServerResponse,
  json: Record<string, unknown>,
  faults: FaultPlan,
): Promise<void> | void {
  if (typeof json.query !== 'string' || json.query === '') {
    sendJson(response, 400, JSON.stringify({ success: false, errCode: 400, errMsg: 'query is required' }))
    return
  }
  const { pieces } = completionPieces({}, faults.chunks)
  if (json.stream !== true) {
    sendJson(
      response,
      200,
      JSON.stringify({
        success: true,
        answer: generatedText(pieces),
        documents: DOCUMENTS,
        errCode: 0,
        errMsg: '',
      }),
    )
    return
  }
  const event = (content: string, finish: boolean) =>
    `data: ${JSON.stringify({ content, finish, model: json.model, documents: finish ? DOCUMENTS : [] })}\n\n`
  const events = [
    ...Array.from({ length: pieces }, (_, index) => event(piece(index), false)),
    event('', true),
  ]
  return writeStream(response, { length: events.length, event: (index) => events[index]! }, faults)
}
