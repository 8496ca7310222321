import { describe, expect, it } from 'vitest'
import { extractErrorFields, mapUpstreamError, toOpenAiErrorBody, transportError } from './upstream-error.ts'

const body = (value: unknown) => Buffer.from(JSON.stringify(value))

describe('upstream error mapping', () => {
  it('keeps an OpenAI error object as it is', () => {
    const error = { message: 'bad', type: 'invalid_request_error', param: 'model', code: 'x' }
    expect(extractErrorFields(400, body({ error }))).toEqual(error)
  })

  it('finds messages in the other common shapes', () => {
    const shapes = [
      { message: 'm1' },
      { msg: 'm1' },
      { err: 'm1' },
      { error_msg: 'm1' },
      { error: 'm1' },
      { header: { message: 'm1' } },
      { response: { error: { message: 'm1' } } },
    ]
    for (const shape of shapes) expect(extractErrorFields(500, body(shape)).message).toBe('m1')
  })

  it('falls back to the status code when the body says nothing usable', () => {
    expect(extractErrorFields(502, Buffer.from('<html>Bad Gateway</html>'))).toEqual({
      message: 'bad response status code 502',
      type: 'upstream_error',
      param: '502',
      code: 'bad_response_status_code',
    })
  })

  it('decides retry and channel disabling', () => {
    expect(mapUpstreamError(400, body({ error: { message: 'x' } }))).toMatchObject({ retryable: false })
    expect(mapUpstreamError(404, body({}))).toMatchObject({ retryable: false, disableChannel: false })
    expect(mapUpstreamError(503, body({}))).toMatchObject({ retryable: true, disableChannel: false })
    expect(mapUpstreamError(401, body({}))).toMatchObject({ retryable: true, disableChannel: true })
    // A 403 may concern one model only (OpenAI: "Project ... does not have access to model ...").
    const modelAccess = {
      error: { message: 'Project proj_1 does not have access to model gpt-x', code: 'model_not_found' },
    }
    expect(mapUpstreamError(403, body(modelAccess))).toMatchObject({ retryable: true, disableChannel: false })
    const denied = { error: { message: 'denied', type: 'permission_error' } }
    expect(mapUpstreamError(403, body(denied))).toMatchObject({ retryable: true, disableChannel: true })
    const quota = { error: { message: 'You exceeded your current quota', type: 'insufficient_quota' } }
    expect(mapUpstreamError(429, body(quota))).toMatchObject({ retryable: true, disableChannel: true })
    const policy = { error: { message: 'rejected', code: 'content_policy_violation' } }
    expect(mapUpstreamError(500, body(policy))).toMatchObject({ retryable: false })
  })

  it('does not disable a channel for messages that merely mention credit or balance', () => {
    const error = { error: { message: 'load balancer busy, credit to the team', type: 'server_error' } }
    expect(mapUpstreamError(500, body(error)).disableChannel).toBe(false)
    const low = { error: { message: 'Your credit balance is too low to access the API' } }
    expect(mapUpstreamError(402, body(low)).disableChannel).toBe(true)
    expect(mapUpstreamError(200, body({ error: { message: '账户已欠费' } })).disableChannel).toBe(true)
  })

  it('never disables a channel for words a client can make a 400 repeat', () => {
    const echo = {
      error: {
        message: 'Unrecognized request argument supplied: incorrect api key',
        type: 'invalid_request_error',
      },
    }
    expect(mapUpstreamError(400, body(echo))).toMatchObject({ retryable: false, disableChannel: false })
    const untyped = { message: "Invalid value: 'your access was terminated'", type: 'BadRequestError' }
    expect(mapUpstreamError(422, body(untyped)).disableChannel).toBe(false)
  })

  it('reads Retry-After seconds and reports 2xx error bodies as a bad gateway', () => {
    expect(mapUpstreamError(429, body({}), { 'retry-after': '20' }).retryAfterSeconds).toBe(20)
    expect(mapUpstreamError(200, body({ error: { message: 'x', type: 'y' } })).status).toBe(502)
    const tooLong = { error: { message: 'context too long', type: 'invalid_request_error' } }
    expect(mapUpstreamError(200, body(tooLong))).toMatchObject({ status: 400, retryable: false })
  })

  it('maps transport failures without naming the upstream host', () => {
    expect(transportError({ code: 'UND_ERR_HEADERS_TIMEOUT' })).toMatchObject({
      status: 504,
      retryable: true,
    })
    const refused = transportError(
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
    )
    expect(refused).toMatchObject({ status: 502, retryable: true })
    expect(refused.message).not.toContain('10.0.0.1')
    expect(transportError({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' })).toMatchObject({
      status: 502,
      code: 'upstream_response_too_large',
      retryable: true,
    })
  })

  it('renders the OpenAI error body for clients', () => {
    const error = { message: 'm', type: 't', param: null, code: 'c' }
    expect(JSON.parse(toOpenAiErrorBody(error, ' (request id: 1)'))).toEqual({
      error: { message: 'm (request id: 1)', type: 't', param: null, code: 'c' },
    })
  })
})
