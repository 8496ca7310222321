/**
 * DashScope's asynchronous image generation as a TaskPlan: the submit answer names a task, which
 * is polled (`GET /api/v1/tasks/{task_id}`) until it SUCCEEDED (its result is the answer) or
 * FAILED. one-api polls every 2 s and gave up after 40 s; current Wanx models take one to two
 * minutes, so the job may take up to TASK_DEADLINE_MS.
 * https://help.aliyun.com/zh/model-studio/developer-reference/text-to-image-api-reference
 */
import type { ChannelCredentials, TaskPlan, TaskStep, UpstreamResponse } from '../adaptor.ts'
import { isRecord } from '../shared/json.ts'
import { localError } from '../shared/upstream-error.ts'
import { baseUrl, TASK_PATH } from './request.ts'
import { aliJson } from './response.ts'

export const POLL_INTERVAL_MS = 2_000
export const TASK_DEADLINE_MS = 120_000
/** Task states still running; SUCCEEDED ends the job; the others (FAILED, CANCELED, UNKNOWN) fail it. */
const RUNNING = new Set(['PENDING', 'RUNNING', 'SUSPENDED'])
/** Failures that are the request's content: another channel would fail alike. */
const CONTENT_CODES = new Set(['DataInspectionFailed', 'IPInfringementSuspect'])

export function imageTaskPlan(channel: ChannelCredentials): TaskPlan {
  return { deadlineMs: TASK_DEADLINE_MS, next: (answer, step) => nextStep(channel, answer, step) }
}

function nextStep(channel: ChannelCredentials, answer: UpstreamResponse, step: number): TaskStep {
  const parsed = aliJson(answer)
  if (parsed.kind === 'error') return parsed
  const output = isRecord(parsed.json.output) ? parsed.json.output : {}
  const taskId = output.task_id
  const status = output.task_status
  if (typeof taskId !== 'string' || taskId === '' || typeof status !== 'string') {
    return localError(502, 'invalid_upstream_response', 'the upstream answered without a task id or status', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  // The submit answer never holds the results, whatever status it reports.
  if (step > 0 && status === 'SUCCEEDED') return { kind: 'done' }
  if (step === 0 || RUNNING.has(status)) {
    const request = {
      url: `${baseUrl(channel)}${TASK_PATH}${encodeURIComponent(taskId)}`,
      headers: taskHeaders(channel),
    }
    return { kind: 'poll', afterMs: POLL_INTERVAL_MS, request }
  }
  return taskFailure(status, output)
}

const taskHeaders = (channel: ChannelCredentials): Record<string, string> => ({
  Authorization: `Bearer ${channel.key}`,
})

function taskFailure(status: string, output: Record<string, unknown>): TaskStep {
  const code = typeof output.code === 'string' ? output.code : status
  const reason = typeof output.message === 'string' ? `: ${output.message}` : ''
  const content = CONTENT_CODES.has(code)
  return localError(
    content ? 400 : 502,
    content ? 'content_filter' : code,
    `the upstream task ended ${status}${reason}`,
    {
      retryable: !content,
      type: content ? 'invalid_request_error' : 'upstream_error',
    },
  )
}
