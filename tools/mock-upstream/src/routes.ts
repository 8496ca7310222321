/**
 * Maps an incoming path to an endpoint. Accepts `/v1/...`, the same without `/v1` (SDK-style base
 * URLs that already end in /v1), Azure's `/openai/deployments/{deployment}/...?api-version=`, and
 * the custom paths of OpenAI-format providers (Doubao /api/v3/..., Bailian
 * /compatible-mode/v1/..., Baidu V2 /v2/chat/completions, Minimax /v1/text/chatcompletion_v2).
 */
export type Endpoint =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  | 'models'
  | 'messages'
  | 'converse'
  | 'converse-stream'
  | 'invoke'
  | 'invoke-with-response-stream'
  | 'vertex'
  | 'responses'
  | 'cohere-chat'
  | 'cohere-embed'
  | 'cohere-rerank'
  | 'rerank'
  | 'ollama-chat'
  | 'ollama-embed'

export interface Route {
  endpoint: Endpoint
  /** The Azure deployment name, when the path names one. */
  deployment?: string
  /** The model named by the path (Bedrock's `/model/{modelId}/...`, Vertex AI's `.../models/{model}:...`). */
  model?: string
  /** Vertex AI: the model's publisher (`anthropic`, `google`) and the method after the colon. */
  publisher?: string
  action?: string
}

const AZURE = /^\/openai\/deployments\/([^/]+)(\/.*)$/
const VERTEX = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/
const BEDROCK = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/

export function matchRoute(method: string, pathname: string): Route | undefined {
  const bedrock = BEDROCK.exec(pathname)
  if (bedrock) {
    if (method !== 'POST') return undefined
    return { endpoint: bedrock[2] as Endpoint, model: decodeURIComponent(bedrock[1]) }
  }
  const vertex = VERTEX.exec(pathname)
  if (vertex) {
    if (method !== 'POST') return undefined
    return {
      endpoint: 'vertex',
      publisher: vertex[1],
      model: decodeURIComponent(vertex[2]),
      action: vertex[3],
    }
  }
  let path = pathname
  let deployment: string | undefined
  const azure = AZURE.exec(path)
  if (azure) {
    deployment = decodeURIComponent(azure[1])
    path = azure[2]
  }
  // Azure's v1 API (the Responses API): /openai/v1/..., the deployment named in the body.
  if (path.startsWith('/openai/v1/')) path = path.slice(7)
  if (path.startsWith('/v1/')) path = path.slice(3)
  const endpoint = endpointOf(path)
  if (!endpoint) return undefined
  if ((endpoint === 'models') !== (method === 'GET')) return undefined
  return { endpoint, deployment }
}

function endpointOf(path: string): Endpoint | undefined {
  if (path.endsWith('/chat/completions') || path.endsWith('/text/chatcompletion_v2')) return 'chat'
  if (path === '/completions') return 'completions'
  if (path.endsWith('/embeddings')) return 'embeddings'
  if (path === '/moderations') return 'moderations'
  if (path === '/images/generations') return 'images'
  if (path === '/audio/speech') return 'speech'
  if (path === '/audio/transcriptions') return 'transcriptions'
  if (path === '/audio/translations') return 'translations'
  if (path === '/models') return 'models'
  if (path === '/messages') return 'messages'
  if (path === '/responses') return 'responses'
  // Cohere's v2 API.
  if (path === '/v2/chat') return 'cohere-chat'
  if (path === '/v2/embed') return 'cohere-embed'
  if (path === '/v2/rerank') return 'cohere-rerank'
  if (path === '/rerank') return 'rerank'
  // Ollama's native API.
  if (path === '/api/chat') return 'ollama-chat'
  if (path === '/api/embed') return 'ollama-embed'
  return undefined
}
