/**
 * Channel type id -> adaptor, per client API. Adding a provider means one folder and one line here.
 */
import type { Adaptor, ClientApi } from './adaptor.ts'
import { anthropicAdaptor, anthropicNativeAdaptor } from './anthropic/adaptor.ts'
import { anthropicClientBridge } from './anthropic-client/bridge.ts'
import { cozeAdaptor } from './coze/adaptor.ts'
import { openAiCompatibleAdaptor } from './openai-compatible/adaptor.ts'
import { OPENAI_FORMAT_CHANNEL_TYPES } from './openai-compatible/default-base-urls.ts'
import { palmRetiredAdaptor } from './palm/adaptor.ts'
import { hunyuanAdaptor } from './tencent/adaptor.ts'
import { zhipuAdaptor } from './zhipu/adaptor.ts'

/** Adaptors for OpenAI clients (chat completions and the other OpenAI endpoints). */
const adaptors = new Map<number, Adaptor>()
for (const type of OPENAI_FORMAT_CHANNEL_TYPES) adaptors.set(type, openAiCompatibleAdaptor)
adaptors.set(14, anthropicAdaptor)
adaptors.set(11, palmRetiredAdaptor)
adaptors.set(16, zhipuAdaptor)
adaptors.set(23, hunyuanAdaptor)
adaptors.set(34, cozeAdaptor)

/** Adaptors that serve Anthropic Messages clients natively; other types are bridged (anthropic-client/). */
const anthropicNative = new Map<number, Adaptor>([[14, anthropicNativeAdaptor]])
const bridged = new Map<number, Adaptor>()

/** The adaptor for a channel type and the client's API, or undefined when this gateway cannot relay to it yet. */
export function getAdaptor(channelType: number, clientApi: ClientApi = 'openai'): Adaptor | undefined {
  const adaptor = adaptors.get(channelType)
  if (clientApi === 'openai' || !adaptor) return adaptor
  const native = anthropicNative.get(channelType)
  if (native) return native
  let bridge = bridged.get(channelType)
  if (!bridge) {
    bridge = anthropicClientBridge(adaptor)
    bridged.set(channelType, bridge)
  }
  return bridge
}

export const supportedChannelTypes = (): number[] => [...adaptors.keys()].sort((left, right) => left - right)
