/**
 * Replicate (type 46) against its documented bodies. Its language models take one prompt and no
 * tools or images, so the tool and vision cases of the shared conformance suite do not apply; the
 * rest (what is sent, answers checked against OpenAI's schema, streams replayed in pieces and cut,
 * error classification) is checked here with the suite's own helpers.
 */
import { describe, expect, it } from 'vitest'
import type { TaskPlan } from '../adaptor.ts'
import { getAdaptor } from '../registry.ts'
import {
  assembled,
  build,
  chatCompletionOf,
  failed,
  parsed,
  replayStream,
} from '../testing/conformance-replay.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { replicateAdaptor } from './adaptor.ts'
import { POLL_INTERVAL_MS } from './prediction-task.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const channel = { type: 46, key: 'r8_token', baseUrl: 'https://api.replicate.com/v1/models/' }
const answer = (name: string, status = 200) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: fixture(name),
})
const messages = [
  { role: 'system', content: 'You are a poet.' },
  { role: 'user', content: 'Write a haiku about llamas' },
]
const chat = (extra: Record<string, unknown> = {}) =>
  jsonRelayRequest('chat', { model: 'meta/meta-llama-3-8b-instruct', messages, ...extra })
const image = jsonRelayRequest('images', {
  model: 'black-forest-labs/flux-schnell',
  prompt: 'a cake',
  n: 2,
  size: '1792x1024',
})

describe('Replicate requests', () => {
  it('serves channel type 46, its predictions followed for every client API', () => {
    expect(getAdaptor(46)).toBe(replicateAdaptor)
    for (const api of ['anthropic', 'gemini', 'responses'] as const) {
      expect(getAdaptor(46, api)?.task).toBe(replicateAdaptor.task)
    }
  })

  it('creates a prediction on the official model, waiting for it, with the prompt one-api builds', () => {
    const built = build(replicateAdaptor, chat({ temperature: 0.5 }), channel)
    expect(built.url).toBe('https://api.replicate.com/v1/models/meta/meta-llama-3-8b-instruct/predictions')
    expect(built.headers).toMatchObject({ Authorization: 'Bearer r8_token', Prefer: 'wait=30' })
    expect(JSON.parse(String(built.body))).toEqual({
      input: {
        prompt: 'user: Write a haiku about llamas\n',
        system_prompt: 'You are a poet.',
        max_tokens: 500,
        temperature: 0.5,
      },
    })
    const streamed = build(replicateAdaptor, chat({ stream: true }), { ...channel, key: 'Token r8_legacy' })
    expect(streamed.headers.Prefer).toBeUndefined()
    expect(streamed.headers.Authorization).toBe('Token r8_legacy')
    expect(JSON.parse(String(streamed.body)).stream).toBe(true)
  })

  it('sends images as an image model input and refuses what it cannot serve', () => {
    const built = build(replicateAdaptor, image, channel)
    expect(built.url).toBe('https://api.replicate.com/v1/models/black-forest-labs/flux-schnell/predictions')
    expect(JSON.parse(String(built.body))).toEqual({
      input: { prompt: 'a cake', num_outputs: 2, aspect_ratio: '7:4' },
    })
    const noOwner = jsonRelayRequest('chat', { model: 'llama', messages })
    expect(replicateAdaptor.buildRequest(noOwner, channel)).toMatchObject({ kind: 'error', status: 400 })
    const embeddings = jsonRelayRequest('embeddings', { model: 'a/b', input: 'x' })
    expect(replicateAdaptor.buildRequest(embeddings, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})

describe('Replicate predictions followed', () => {
  it('polls a prediction still running, with the key, at a URL of the channel, until it succeeded', () => {
    const plan = replicateAdaptor.task!(image, channel) as TaskPlan
    expect(plan.next(answer('prediction-image-processing.json', 201), 0)).toEqual({
      kind: 'poll',
      afterMs: POLL_INTERVAL_MS,
      request: {
        url: 'https://api.replicate.com/v1/predictions/q1yde5b6ydrgp0cj1j6tr2kzzm',
        headers: { Authorization: 'Bearer r8_token' },
      },
    })
    expect(plan.next(answer('prediction-image-succeeded.json'), 1)).toEqual({ kind: 'done' })
    const result = parsed(
      replicateAdaptor.parseResponse(answer('prediction-image-succeeded.json'), { ...image, receivedAt: 7 }),
    )
    expect(result.imageCount).toBe(1)
    expect(JSON.parse(result.body.toString())).toEqual({
      created: 7,
      data: [
        {
          url: 'https://replicate.delivery/yhqm/hcDDSNf633zeDUz9sWkKfaftcfJLWIvuhn9vfCFWmufxelmemA/out-0.webp',
        },
      ],
    })
  })

  it('fails a failed prediction with its error, to be tried elsewhere', () => {
    const plan = replicateAdaptor.task!(image, channel) as TaskPlan
    expect(plan.next(answer('prediction-failed.json'), 1)).toMatchObject({
      kind: 'error',
      status: 502,
      retryable: true,
      message:
        'the upstream prediction failed: NSFW content detected. Try running it again, or try a different prompt.',
    })
  })

  it('answers a finished language model prediction as a chat completion with its token counts', () => {
    const result = parsed(replicateAdaptor.parseResponse(answer('prediction-text-succeeded.json'), chat()))
    const completion = chatCompletionOf(result)
    // biome-ignore lint/suspicious/noExplicitAny: a parsed answer, read field by field
    const choice = (completion.choices as any[])[0]
    expect(choice.message.content).toBe(
      'Softly grazing on high\nFleece of clouds and gentle eyes\nAndes whisper calm',
    )
    expect(result.usage).toMatchObject({ promptTokens: 17, completionTokens: 16, totalTokens: 33 })
  })

  it('reads a stream request from the prediction stream URL, without the key', () => {
    const plan = replicateAdaptor.task!(chat({ stream: true }), channel) as TaskPlan
    expect(plan.next(answer('prediction-starting.json', 201), 0)).toEqual({
      kind: 'stream',
      request: {
        url: 'https://stream.replicate.com/v1/files/bcwr-3okdfv3o2wehstv5f2okyftwxy57hhypqsi6osiim5iwzpr6u7ovq',
        headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-store' },
      },
    })
  })

  it('turns the output events into OpenAI chunks, in any split, ending at done', () => {
    const request = chat({ stream: true })
    for (const size of [1, 7, 64, 100_000]) {
      const replay = replayStream(replicateAdaptor, channel, request, fixture('stream.sse'), size)
      expect(assembled(replay.chunks)).toMatchObject({
        text: 'Softly grazing on high\nFleece',
        finishReason: 'stop',
      })
      expect(replay.events.filter((event) => event === '[DONE]')).toHaveLength(1)
      expect(replay.transformer.upstreamCompleted).toBe(true)
      expect(replay.transformer.completionText).toBe('Softly grazing on high\nFleece')
    }
    const bytes = fixture('stream.sse')
    const cut = bytes.subarray(0, bytes.indexOf('event: done'))
    const replay = replayStream(replicateAdaptor, channel, request, cut, 5, false)
    expect(replay.events).not.toContain('[DONE]')
    expect(replay.transformer.upstreamCompleted).toBe(false)
  })

  it('maps Replicate errors for retry and channel disabling', () => {
    const errorOf = (name: string, status: number) =>
      failed(replicateAdaptor.parseResponse(answer(name, status), chat()))
    expect(errorOf('error-401.json', 401)).toMatchObject({ status: 401, disableChannel: true })
    expect(errorOf('error-404.json', 404)).toMatchObject({ status: 404, retryable: false })
    expect(errorOf('error-422.json', 422)).toMatchObject({
      status: 422,
      retryable: false,
      message: '- input.prompt: Invalid type. Expected: string, given: null',
    })
    expect(errorOf('error-429.json', 429)).toMatchObject({
      status: 429,
      retryable: true,
      disableChannel: false,
    })
  })
})
