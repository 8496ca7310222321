/**
 * Channel type id -> adaptor, per client API. Adding a provider means one folder and one line here.
 */
import type { Adaptor, ClientApi } from './adaptor.ts'
import { aiProxyLibraryAdaptor } from './aiproxy-library/adaptor.ts'
import { aliAdaptor } from './ali/adaptor.ts'
import { anthropicAdaptor, anthropicNativeAdaptor } from './anthropic/adaptor.ts'
import { anthropicClientBridge } from './anthropic-client/bridge.ts'
import { baiduAdaptor } from './baidu/adaptor.ts'
import { bedrockAdaptor } from './bedrock/adaptor.ts'
import { bedrockMessagesAdaptor } from './bedrock/native-messages.ts'
import { cloudflareAdaptor } from './cloudflare/adaptor.ts'
import { cohereAdaptor } from './cohere/adaptor.ts'
import { cozeAdaptor } from './coze/adaptor.ts'
import { deeplAdaptor } from './deepl/adaptor.ts'
import { geminiAdaptor } from './gemini/adaptor.ts'
import { geminiClientBridge } from './gemini-client/bridge.ts'
import { geminiNativeAdaptor } from './gemini-client/native-adaptor.ts'
import { ollamaAdaptor } from './ollama/adaptor.ts'
import { openAiCompatibleAdaptor } from './openai-compatible/adaptor.ts'
import { OPENAI_FORMAT_CHANNEL_TYPES } from './openai-compatible/default-base-urls.ts'
import { minimaxAdaptor } from './openai-compatible/minimax.ts'
import { palmRetiredAdaptor } from './palm/adaptor.ts'
import { replicateAdaptor } from './replicate/adaptor.ts'
import { responsesClientBridge } from './responses-client/bridge.ts'
import { responsesPassthroughAdaptor, servesResponsesApi } from './responses-client/passthrough.ts'
import { hunyuanAdaptor } from './tencent/adaptor.ts'
import { vertexAdaptor } from './vertex/adaptor.ts'
import { vertexGeminiClientAdaptor } from './vertex/native-gemini.ts'
import { vertexMessagesAdaptor } from './vertex/native-messages.ts'
import { xunfeiAdaptor } from './xunfei/adaptor.ts'
import { zhipuAdaptor } from './zhipu/adaptor.ts'

/** Adaptors for OpenAI clients (chat completions and the other OpenAI endpoints). */
const adaptors = new Map<number, Adaptor>()
for (const type of OPENAI_FORMAT_CHANNEL_TYPES) adaptors.set(type, openAiCompatibleAdaptor)
adaptors.set(27, minimaxAdaptor)
adaptors.set(14, anthropicAdaptor)
adaptors.set(24, geminiAdaptor)
adaptors.set(33, bedrockAdaptor)
adaptors.set(30, ollamaAdaptor)
adaptors.set(35, cohereAdaptor)
adaptors.set(11, palmRetiredAdaptor)
adaptors.set(15, baiduAdaptor)
adaptors.set(16, zhipuAdaptor)
adaptors.set(23, hunyuanAdaptor)
adaptors.set(17, aliAdaptor)
adaptors.set(46, replicateAdaptor)
adaptors.set(42, vertexAdaptor)
adaptors.set(34, cozeAdaptor)
adaptors.set(37, cloudflareAdaptor)
adaptors.set(18, xunfeiAdaptor)
adaptors.set(38, deeplAdaptor)
adaptors.set(21, aiProxyLibraryAdaptor)

type BridgedClientApi = Exclude<ClientApi, 'openai' | 'responses'>

/** Adaptors that serve a client API natively; other types are bridged (anthropic-client/, gemini-client/). */
const natives: Record<BridgedClientApi, Map<number, Adaptor>> = {
  anthropic: new Map([
    [14, anthropicNativeAdaptor],
    [33, bedrockMessagesAdaptor],
    [42, vertexMessagesAdaptor],
  ]),
  gemini: new Map([
    [24, geminiNativeAdaptor],
    [42, vertexGeminiClientAdaptor],
  ]),
}
const bridges: Record<BridgedClientApi, (inner: Adaptor) => Adaptor> = {
  anthropic: anthropicClientBridge,
  gemini: geminiClientBridge,
}
/** Bridged adaptors, built once per client API and channel type. */
const bridged = new Map<string, Adaptor>()
/** Responses API clients: passed through where the channel serves that API, else bridged (responses-client/). */
const responsesBridged = new Map<number, Adaptor>()

function responsesAdaptor(
  channelType: number,
  adaptor: Adaptor,
  config?: Readonly<Record<string, unknown>>,
): Adaptor {
  if (servesResponsesApi(channelType, config)) return responsesPassthroughAdaptor
  let bridge = responsesBridged.get(channelType)
  if (!bridge) {
    bridge = responsesClientBridge(adaptor)
    responsesBridged.set(channelType, bridge)
  }
  return bridge
}

/**
 * The adaptor for a channel type (and its config, which may say what its upstream serves) and the
 * client's API, or undefined when this gateway cannot relay to it yet.
 */
export function getAdaptor(
  channelType: number,
  clientApi: ClientApi = 'openai',
  config?: Readonly<Record<string, unknown>>,
): Adaptor | undefined {
  const adaptor = adaptors.get(channelType)
  if (clientApi === 'openai' || !adaptor) return adaptor
  if (clientApi === 'responses') return responsesAdaptor(channelType, adaptor, config)
  const native = natives[clientApi].get(channelType)
  if (native) return native
  const key = `${clientApi}:${channelType}`
  let bridge = bridged.get(key)
  if (!bridge) {
    bridge = bridges[clientApi](adaptor)
    bridged.set(key, bridge)
  }
  return bridge
}

export const supportedChannelTypes = (): number[] => [...adaptors.keys()].sort((left, right) => left - right)
