import type { Socket } from 'node:net'
import { rawServer, type TestServer } from './upstream-servers.ts'

/** One request a hostile upstream received: its socket, and the marker the caller put in its prompt. */
export interface HostileRequest {
  socket: Socket
  marker: string
  /** Requests received so far on every connection, this one included (1 for the first). */
  count: number
}

export type HostileUpstream = TestServer & { requests(): number }

/**
 * An upstream on a plain TCP server that reads each HTTP request (head and Content-Length body)
 * and lets `answer` write whatever bytes it likes, well formed or not. The marker is the first
 * message's text, so a test can tell which request an answer belongs to.
 */
export async function hostileUpstream(answer: (request: HostileRequest) => void): Promise<HostileUpstream> {
  let count = 0
  const server = await rawServer((socket) => {
    let pending = Buffer.alloc(0)
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n')
        if (headEnd === -1) return
        const head = pending.toString('latin1', 0, headEnd)
        const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
        if (pending.length < headEnd + 4 + length) return
        const body = pending.toString('utf8', headEnd + 4, headEnd + 4 + length)
        pending = pending.subarray(headEnd + 4 + length)
        count += 1
        answer({ socket, marker: markerOf(body), count })
      }
    })
  })
  return { ...server, requests: () => count }
}

function markerOf(body: string): string {
  try {
    const json = JSON.parse(body) as { messages?: Array<{ content?: unknown }> }
    return String(json.messages?.[0]?.content ?? '')
  } catch {
    return ''
  }
}

/** A chat completion answering `marker` with `echo:<marker>` (3 prompt and 2 completion tokens). */
export function chatBody(marker: string): string {
  return JSON.stringify({
    id: 'chatcmpl-hostile',
    object: 'chat.completion',
    created: 1,
    model: 'hostile',
    choices: [{ index: 0, message: { role: 'assistant', content: `echo:${marker}` }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  })
}

/** A well-formed keep-alive answer with Content-Length, with `extraHeaders` (CRLF-ended lines) in its head. */
export function chatAnswer(marker: string, extraHeaders = ''): string {
  const body = chatBody(marker)
  return (
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extraHeaders}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  )
}

/** One event of a streamed chat answer. */
export function chatEvent(text: string): string {
  const chunk = {
    id: 'chatcmpl-hostile',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'hostile',
    choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
  }
  return `data: ${JSON.stringify(chunk)}\n\n`
}
