import { ChannelStatus, LogType } from '@one-api/contracts'
import { getAdaptor, isUpstreamError, type RelayRequest, transportError } from '@one-api/providers'
import type { Selectable } from 'kysely'
import type { AppContext } from '../../app-context.ts'
import { insertLogs, systemLog } from '../../db/repositories/logs-repository.ts'
import type { ChannelsTable } from '../../db/schema.ts'
import { BusTopic } from '../../platform/bus-topics.ts'
import { withChannelCredentials } from '../pipeline/channel-credentials.ts'
import { providerDefaults } from '../pipeline/provider-defaults.ts'
import { readWholeBody } from '../pipeline/streamed-response.ts'
import type { UpstreamCall } from '../pipeline/upstream-call.ts'
import type { UpstreamClient } from '../pipeline/upstream-client.ts'
import type { RelayServices } from '../relay-services.ts'
import { toRoutedChannel } from '../routing/routed-channel.ts'
import { redactChannelKey } from './redact-key.ts'

export interface ChannelTestResult {
  ok: boolean
  message: string
  /** Wall time of the test in seconds. */
  seconds: number
  model: string
  /** The upstream said the channel's key or account is unusable. */
  disableChannel: boolean
}

const TEST_TIMEOUT_MS = 60_000

/** What a channel test reads and writes: the channel and log tables, the test prompt, the transport. */
export type TestDependencies = Pick<AppContext, 'db' | 'logDb' | 'config'> & {
  relay: Pick<RelayServices, 'upstream'>
}

/** What applying a result touches: the bus, the automatic switches and the failure accounting. */
export type ApplyDependencies = Pick<AppContext, 'bus' | 'options' | 'channelHealth'>

/**
 * Sends one small non-stream chat request through the channel's own adaptor:
 * the requested model if the channel lists it, else gpt-3.5-turbo if listed, else its first model.
 * Records response_time (0 when the test failed) and test_time and a test log (type 5); charges no
 * quota. What the upstream said is passed on without the channel's key (redact-key.ts).
 */
export async function testChannel(
  context: TestDependencies,
  row: Selectable<ChannelsTable>,
  requestedModel?: string,
): Promise<ChannelTestResult> {
  const channel = toRoutedChannel(row)
  const models = (row.models ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean)
  const model =
    requestedModel && models.includes(requestedModel)
      ? requestedModel
      : models.includes('gpt-3.5-turbo')
        ? 'gpt-3.5-turbo'
        : (models[0] ?? '')
  const started = Date.now()
  const finish = async (ok: boolean, said: string, disableChannel = false): Promise<ChannelTestResult> => {
    const elapsed = Date.now() - started
    const now = Math.floor(Date.now() / 1000)
    const message = redactChannelKey(said, row.key)
    // A failed test has no response time: its elapsed time made a dead channel look fast.
    await context.db
      .updateTable('channels')
      .set({ response_time: ok ? elapsed : 0, test_time: now })
      .where('id', '=', row.id)
      .execute()
    await insertLogs(context.logDb, [
      systemLog({
        user_id: 0,
        type: LogType.test,
        channel_id: row.id,
        model_name: model,
        elapsed_time: elapsed,
        content: `Channel ${row.name} (#${row.id}) test ${ok ? 'succeeded' : 'failed'}: ${message}`.slice(
          0,
          1000,
        ),
      }),
    ])
    return { ok, message, seconds: elapsed / 1000, model, disableChannel }
  }
  const adaptor = getAdaptor(row.type)
  if (!adaptor) return finish(false, `channel type ${row.type} is not supported by this gateway yet`)
  if (!model) return finish(false, 'the channel has no model to test')
  const mappedModel = channel.modelMapping[model] || model
  const json = { model, messages: [{ role: 'user', content: context.config.TEST_PROMPT }] }
  const request: RelayRequest = {
    mode: 'chat',
    // Signed requests (AWS) are signed with the time of the test.
    receivedAt: Math.floor(Date.now() / 1000),
    path: '/v1/chat/completions',
    body: Buffer.from(JSON.stringify(json)),
    json,
    requestedModel: model,
    mappedModel,
    stream: false,
    clientWantsUsage: false,
    contentType: 'application/json',
  }
  const outcome = await withChannelCredentials(
    context.relay.upstream.credentials,
    adaptor,
    { ...channel, defaults: providerDefaults(context.config) },
    async (credentials) => {
      const built = adaptor.buildRequest(request, credentials)
      if (isUpstreamError(built)) return { kind: 'failed' as const, error: built }
      try {
        const answer = await wholeAnswer(context.relay.upstream, {
          ...built,
          signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
        })
        const parsed = adaptor.parseResponse(answer, request)
        if (isUpstreamError(parsed)) return { kind: 'failed' as const, error: parsed }
        return { kind: 'answered' as const, text: replyText(parsed.body) || 'ok' }
      } catch (error) {
        return { kind: 'failed' as const, error: transportError(error) }
      }
    },
  )
  if (outcome.kind === 'answered') return finish(true, outcome.text)
  return finish(false, outcome.error.message, outcome.error.disableChannel)
}

/**
 * The upstream's whole answer to a test call. A WebSocket upstream (Xunfei Spark) is reached as the
 * relay reaches it; every other one through a plain HTTP request.
 */
async function wholeAnswer(upstream: UpstreamClient, call: UpstreamCall) {
  if (call.webSocket) {
    const answer = await upstream.start(call).done
    if (answer.kind !== 'buffered') throw new Error('the upstream answered a test call with a stream')
    return { status: answer.status, headers: answer.headers, body: answer.body }
  }
  const response = await upstream.send(call, { whole: true })
  return { status: response.statusCode, headers: response.headers, body: await readWholeBody(response.body) }
}

function replyText(body: Buffer): string {
  try {
    const json = JSON.parse(body.toString('utf8')) as { choices?: Array<{ message?: { content?: unknown } }> }
    const content = json.choices?.[0]?.message?.content
    return typeof content === 'string' ? content.slice(0, 200) : ''
  } catch {
    return ''
  }
}

/** Applies a test result to the channel's status, as far as the automatic switches allow. */
export async function applyTestResult(
  context: ApplyDependencies,
  row: Selectable<ChannelsTable>,
  result: ChannelTestResult,
  slowerThanSeconds?: number,
): Promise<void> {
  // A channel that answers its test is taken back into use at once, cooling down or not.
  if (result.ok) await context.bus.publish(BusTopic.channelHealthy, String(row.id), `channel #${row.id}`)
  const monitor = context.channelHealth
  if (!monitor) return
  const { options } = context
  const tooSlow =
    slowerThanSeconds !== undefined && slowerThanSeconds > 0 && result.seconds > slowerThanSeconds
  if (row.status === ChannelStatus.enabled && options.boolean('AutomaticDisableChannelEnabled')) {
    if (!result.ok && result.disableChannel) await monitor.disable(row.id, row.name, result.message)
    else if (tooSlow) await monitor.disable(row.id, row.name, `the test took ${result.seconds.toFixed(2)}s`)
  }
  // Only channels the program disabled come back on their own; a manual disable stays.
  if (
    row.status === ChannelStatus.autoDisabled &&
    result.ok &&
    !tooSlow &&
    options.boolean('AutomaticEnableChannelEnabled')
  ) {
    await monitor.enable(row.id, row.name)
  }
}
