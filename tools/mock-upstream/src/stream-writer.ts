/**
 * Writes an SSE script to the client with the stream faults applied: delay between events,
 * cut the connection after N events, and backpressure for very long streams.
 */
import type { ServerResponse } from 'node:http'
import type { FaultPlan } from './faults.ts'

/** A stream as an indexed list of complete events (`data: ...\n\n`), produced on demand. */
export interface StreamScript {
  readonly length: number
  event(index: number): string
  /** The whole stream as one string, when it is small enough to build and cache at once. */
  joined?: string
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
}

const BATCH = 256

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** Resolves when the socket can take more data, or when the client went away. */
export const drained = (response: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done)
      response.off('close', done)
      resolve()
    }
    response.once('drain', done)
    response.once('close', done)
  })

export async function writeStream(
  response: ServerResponse,
  script: StreamScript,
  faults: FaultPlan,
  headers: Record<string, string> = SSE_HEADERS,
): Promise<void> {
  response.writeHead(200, headers)
  const delay = faults.chunkDelayMs ?? 0
  const cut = faults.cutAfterChunks
  const limit = cut === undefined ? script.length : Math.min(cut, script.length)
  const holdOpen = faults.holdOpenMs ?? 0
  const keepAlives = faults.keepAlives ?? 0
  if (delay === 0 && cut === undefined && holdOpen === 0 && keepAlives === 0 && script.joined !== undefined) {
    response.end(script.joined)
    return
  }
  // A provider that queues the request says it is alive with comments before its first event.
  for (let sent = 0; sent < keepAlives && !response.destroyed; sent++) {
    response.write(': keep-alive\n\n')
    if (delay > 0) await sleep(delay)
  }
  let index = 0
  while (index < limit && !response.destroyed) {
    let batch = ''
    if (delay > 0) {
      if (index > 0) await sleep(delay)
      batch = script.event(index)
      index += 1
    } else {
      for (let count = 0; count < BATCH && index < limit; count += 1, index += 1) batch += script.event(index)
    }
    if (response.destroyed) return
    if (!response.write(batch)) await drained(response)
  }
  if (response.destroyed) return
  if (cut !== undefined && cut < script.length) {
    // Flush what was written, then close the connection without finishing the chunked body:
    // the client sees a stream that stops mid-way with no [DONE].
    response.flushHeaders()
    response.socket?.end()
    return
  }
  // A provider (or a proxy before it) that keeps the body open after its last event.
  if (holdOpen > 0) await sleep(holdOpen)
  if (!response.destroyed) response.end()
}
