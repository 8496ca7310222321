import { EventEmitter } from 'node:events'
import type { TaskPlan } from '@one-api/providers'
import { describe, expect, it } from 'vitest'
import type { RelayState } from './relay-state.ts'
import type { UpstreamClient } from './upstream-client.ts'
import { followTask } from './upstream-task.ts'

/** An upstream answering every call with `body` (status 200) and recording the URLs called. */
function fakeUpstream(body: string) {
  const urls: string[] = []
  const client = {
    start(call: { url: string }) {
      urls.push(call.url)
      return {
        done: Promise.resolve({ kind: 'buffered', status: 200, headers: {}, body: Buffer.from(body) }),
        cancel() {},
      }
    },
  } as unknown as UpstreamClient
  return { client, urls }
}

const state = () => ({ clientGone: false, response: new EventEmitter() }) as unknown as RelayState
const first = { kind: 'request', url: 'http://up/submit', method: 'POST', headers: {}, body: '{}' } as const
const polling = (deadlineMs: number, afterMs: number): TaskPlan => ({
  deadlineMs,
  next: (_answer, step) =>
    step < 3
      ? { kind: 'poll', afterMs, request: { url: `http://up/task/${step}`, headers: {} } }
      : { kind: 'done' },
})

describe('followTask', () => {
  it('follows the plan until it is done and returns the last answer', async () => {
    const { client, urls } = fakeUpstream('{"ok":true}')
    const answer = await followTask(
      client,
      state(),
      { ...first, dropUsageChunk: false, bodyRewritten: false },
      polling(5_000, 1),
      undefined,
    )
    expect(answer).toMatchObject({ kind: 'buffered', status: 200 })
    expect(urls).toEqual(['http://up/submit', 'http://up/task/0', 'http://up/task/1', 'http://up/task/2'])
  })

  it('answers 504 without waiting when the next poll would pass the deadline', async () => {
    const { client, urls } = fakeUpstream('{}')
    const started = Date.now()
    const answer = await followTask(
      client,
      state(),
      { ...first, dropUsageChunk: false, bodyRewritten: false },
      polling(1_000, 5_000),
      undefined,
    )
    expect(answer).toMatchObject({
      kind: 'error',
      status: 504,
      code: 'upstream_task_timeout',
      retryable: false,
    })
    expect(Date.now() - started).toBeLessThan(500)
    expect(urls).toEqual(['http://up/submit'])
  })

  it('stops waiting and calls nothing more once the client has gone', async () => {
    const { client, urls } = fakeUpstream('{}')
    const relay = state()
    const running = followTask(
      client,
      relay,
      { ...first, dropUsageChunk: false, bodyRewritten: false },
      polling(60_000, 30_000),
      undefined,
    )
    setTimeout(() => {
      relay.clientGone = true
      relay.response.emit('close')
    }, 20)
    expect(await running).toMatchObject({ kind: 'error', code: 'client_gone' })
    expect(urls).toEqual(['http://up/submit'])
  })
})
