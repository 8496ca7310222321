import type { FollowUpRequest, TaskPlan, UpstreamError, UpstreamRequest } from '@one-api/providers'
import { localError } from '@one-api/providers'
import type { RelayState } from './relay-state.ts'
import type { UpstreamClient } from './upstream-client.ts'
import type { StreamSink, UpstreamAnswer } from './upstream-exchange.ts'

/** Ends a job past its deadline; its message is the failure's. */
class TaskTimedOut extends Error {}

/**
 * Runs a multi-step upstream job (see TaskPlan in the providers' adaptor contract): the first
 * request, then the follow-ups the plan decides, each answer read whole but a `stream` step's,
 * which goes to `sink`. Returns the job's last answer (for parseResponse or the stream's outcome)
 * or the failure that ended it: a plan's error, the deadline, or the client going away.
 */
export async function followTask(
  upstream: UpstreamClient,
  state: RelayState,
  first: UpstreamRequest,
  plan: TaskPlan,
  sink: StreamSink | undefined,
): Promise<UpstreamAnswer | UpstreamError> {
  const deadline = Date.now() + plan.deadlineMs
  const seconds = Math.round(plan.deadlineMs / 1000)
  const timedOut = () =>
    localError(504, 'upstream_task_timeout', `the upstream task did not finish within ${seconds} s`, {
      type: 'upstream_error',
    })
  const timer = setTimeout(() => state.upstreamCall?.cancel(new TaskTimedOut()), plan.deadlineMs)
  try {
    let answer = await send(upstream, state, first, undefined)
    for (let step = 0; ; step += 1) {
      if (answer.kind !== 'buffered' || answer.status < 200 || answer.status >= 300) return answer
      const next = plan.next({ status: answer.status, headers: answer.headers, body: answer.body }, step)
      if (next.kind === 'done') return answer
      if (next.kind === 'error') return next
      if (next.kind === 'stream') return await send(upstream, state, followUp(next.request), sink)
      if (Date.now() + next.afterMs >= deadline) return timedOut()
      if (!(await waitUnlessGone(state, next.afterMs))) return clientGone()
      answer = await send(upstream, state, followUp(next.request), undefined)
    }
  } catch (error) {
    if (error instanceof TaskTimedOut) return timedOut()
    throw error
  } finally {
    clearTimeout(timer)
  }
}

const followUp = (request: FollowUpRequest) => ({ ...request, method: 'GET' as const })

async function send(
  upstream: UpstreamClient,
  state: RelayState,
  request: { url: string; method: string; headers: Record<string, string>; body?: Buffer | string },
  sink: StreamSink | undefined,
): Promise<UpstreamAnswer> {
  if (state.clientGone) throw new Error('the client closed the connection')
  const call = upstream.start(request, sink)
  state.upstreamCall = call
  return await call.done
}

/** Waits `milliseconds`; false when the client went away meanwhile (the wait ends then). */
function waitUnlessGone(state: RelayState, milliseconds: number): Promise<boolean> {
  if (state.clientGone) return Promise.resolve(false)
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer)
      resolve(false)
    }
    const timer = setTimeout(() => {
      state.response.off('close', onClose)
      resolve(!state.clientGone)
    }, milliseconds)
    state.response.once('close', onClose)
  })
}

const clientGone = (): UpstreamError =>
  localError(499, 'client_gone', 'the client closed the connection while the upstream task ran', {
    type: 'upstream_error',
  })
