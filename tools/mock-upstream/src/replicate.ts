/**
 * Replicate's prediction API, as channel type 46 calls it: official-model predictions created at
 * `POST /v1/models/{owner}/{name}/predictions`, polled at `GET /v1/predictions/{id}`, and streamed
 * from their stream URL. A prediction created with `Prefer: wait` is finished in that call, unless
 * its model's name holds "slow": then it is `processing` until the second poll. Language models
 * (an input with `max_tokens`) answer the mock's five pieces of text with token counts in
 * `metrics`; image models one URL per `num_outputs`. The key is checked (`Bearer` or `Token`).
 * https://replicate.com/docs/reference/http
 * https://replicate.com/docs/topics/predictions/streaming
 */
import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { sendJson } from './errors.ts'
import { isRecord, type Json } from './json.ts'
import { SSE_HEADERS } from './stream-writer.ts'
import { DEFAULT_CHUNKS, piece, promptTokensOf } from './usage-rules.ts'

const CREATE = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/
const GET = /^\/v1\/predictions\/([^/]+)$/
const STREAM = /^\/replicate-stream\/([^/]+)$/

interface Prediction {
  id: string
  key: string
  model: string
  input: Json
  polls: number
  text: boolean
}

export const isReplicatePath = (pathname: string): boolean =>
  CREATE.test(pathname) || GET.test(pathname) || STREAM.test(pathname)

const problem = (response: ServerResponse, status: number, title: string, detail: string) =>
  sendJson(response, status, JSON.stringify({ title, detail, status }))

export class Replicate {
  private readonly predictions = new Map<string, Prediction>()

  constructor(private readonly apiKeys: ReadonlySet<string> | undefined) {}

  handle(
    method: string,
    pathname: string,
    headers: IncomingHttpHeaders,
    json: Json | undefined,
    response: ServerResponse,
  ) {
    const stream = STREAM.exec(pathname)
    if (stream && method === 'GET') return this.stream(stream[1]!, response)
    const key = headers.authorization?.replace(/^(Bearer|Token)\s+/, '') ?? ''
    if (key === '' || (this.apiKeys && !this.apiKeys.has(key))) {
      return problem(response, 401, 'Unauthenticated', 'You did not pass a valid authentication token')
    }
    const create = CREATE.exec(pathname)
    if (create && method === 'POST')
      return this.create(`${create[1]}/${create[2]}`, key, headers, json, response)
    const get = GET.exec(pathname)
    if (get && method === 'GET') return this.poll(get[1]!, key, headers, response)
    problem(response, 404, 'Not found', 'The requested resource could not be found.')
  }

  private create(
    model: string,
    key: string,
    headers: IncomingHttpHeaders,
    json: Json | undefined,
    response: ServerResponse,
  ) {
    const input = isRecord(json?.input) ? json.input : undefined
    if (!input || typeof input.prompt !== 'string') {
      return problem(
        response,
        422,
        'Input validation failed',
        '- input.prompt: Invalid type. Expected: string',
      )
    }
    const prediction: Prediction = {
      id: randomUUID().replaceAll('-', '').slice(0, 26),
      key,
      model,
      input,
      polls: 0,
      text: typeof input.max_tokens === 'number',
    }
    this.predictions.set(prediction.id, prediction)
    const waited =
      typeof headers.prefer === 'string' && headers.prefer.startsWith('wait') && !model.includes('slow')
    if (waited) prediction.polls = 2
    sendJson(response, 201, JSON.stringify(this.view(prediction, headers, json?.stream === true)))
  }

  private poll(id: string, key: string, headers: IncomingHttpHeaders, response: ServerResponse) {
    const prediction = this.predictions.get(id)
    if (!prediction || prediction.key !== key) {
      return problem(response, 404, 'Not found', 'The requested resource could not be found.')
    }
    prediction.polls += 1
    sendJson(response, 200, JSON.stringify(this.view(prediction, headers, false)))
  }

  private stream(id: string, response: ServerResponse) {
    const prediction = this.predictions.get(id)
    if (!prediction) return problem(response, 404, 'Not found', 'The requested resource could not be found.')
    response.writeHead(200, SSE_HEADERS)
    for (let index = 0; index < DEFAULT_CHUNKS; index += 1) {
      response.write(`event: output\nid: ${id}:${index}\ndata: ${piece(index)}\n\n`)
    }
    response.end(`event: done\nid: ${id}:${DEFAULT_CHUNKS}\ndata: {}\n\n`)
  }

  private view(prediction: Prediction, headers: IncomingHttpHeaders, stream: boolean): Json {
    const { id, model, input, text } = prediction
    const origin = `http://${headers.host}`
    const status = prediction.polls === 0 ? 'starting' : prediction.polls === 1 ? 'processing' : 'succeeded'
    const done = status === 'succeeded'
    const count = typeof input.num_outputs === 'number' ? input.num_outputs : 1
    const output = !done
      ? null
      : text
        ? Array.from({ length: DEFAULT_CHUNKS }, (_, index) => piece(index))
        : Array.from(
            { length: count },
            (_, index) => `https://mock-upstream.invalid/replicate/${id}/out-${index}.webp`,
          )
    const metrics =
      done && text
        ? {
            metrics: {
              input_token_count: promptTokensOf({ prompt: input.prompt }),
              output_token_count: DEFAULT_CHUNKS,
            },
          }
        : {}
    const urls: Json = {
      get: `${origin}/v1/predictions/${id}`,
      cancel: `${origin}/v1/predictions/${id}/cancel`,
    }
    if (stream) urls.stream = `${origin}/replicate-stream/${id}`
    return { id, model, input, output, error: null, status, logs: '', data_removed: false, ...metrics, urls }
  }
}
