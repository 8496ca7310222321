/**
 * An OpenAI chat request as a Bedrock Converse request.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * The turns are built as for Anthropic (system text apart, tool results as user turns, turns of
 * one role merged: Converse wants them alternating too), then each block takes Converse's shape.
 * Images go as bytes: Converse takes no URLs, so the pipeline fetches them (remoteImages).
 */
import type { InlineImage } from '../adaptor.ts'
import { convertMessages } from '../anthropic/request-body.ts'
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { isClaude } from './model-ids.ts'

/** Image formats Converse takes, by media type. */
const IMAGE_FORMATS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
}

export class UnusableImage extends Error {}

function imageBlock(source: Json): Json {
  if (source.type !== 'base64') throw new UnusableImage('an image URL that was not fetched')
  const format = IMAGE_FORMATS[String(source.media_type).toLowerCase()]
  if (!format)
    throw new UnusableImage(`images of type ${String(source.media_type)} (png, jpeg, gif and webp are)`)
  return { image: { format, source: { bytes: source.data } } }
}

/** One Anthropic content block (from convertMessages) in Converse's shape. */
function converseBlock(block: Json): Json | undefined {
  switch (block.type) {
    case 'text':
      return { text: block.text }
    case 'image':
      return imageBlock(block.source as Json)
    case 'tool_use':
      return { toolUse: { toolUseId: block.id, name: block.name, input: block.input } }
    case 'tool_result': {
      const content = Array.isArray(block.content)
        ? (block.content as Json[]).map(converseBlock).filter((item): item is Json => item !== undefined)
        : [{ text: String(block.content ?? '') }]
      return { toolResult: { toolUseId: block.tool_use_id, content } }
    }
    default:
      return undefined
  }
}

function toolConfig(tools: unknown, choice: unknown): Json | undefined {
  if (!Array.isArray(tools)) return undefined
  const specs = tools
    .filter((tool): tool is Json => isRecord(tool) && isRecord(tool.function))
    .map((tool) => {
      const fn = tool.function as Json
      return {
        toolSpec: {
          name: fn.name,
          ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
          inputSchema: { json: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} } },
        },
      }
    })
  if (specs.length === 0) return undefined
  const config: Json = { tools: specs }
  if (choice === 'required') config.toolChoice = { any: {} }
  else if (choice === 'auto') config.toolChoice = { auto: {} }
  else if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    config.toolChoice = { tool: { name: choice.function.name } }
  }
  return config
}

function inferenceConfig(json: Json): Json | undefined {
  const config: Json = {}
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  if (typeof maxTokens === 'number' && maxTokens > 0) config.maxTokens = maxTokens
  if (typeof json.temperature === 'number') config.temperature = json.temperature
  if (typeof json.top_p === 'number') config.topP = json.top_p
  const stop = typeof json.stop === 'string' ? [json.stop] : Array.isArray(json.stop) ? json.stop : []
  const sequences = stop.filter((item): item is string => typeof item === 'string')
  if (sequences.length > 0) config.stopSequences = sequences
  return Object.keys(config).length > 0 ? config : undefined
}

export interface ConverseBodyOptions {
  modelId: string
  systemPrompt?: string
  images?: ReadonlyMap<string, InlineImage>
}

/** The Converse body (the model is in the URL). Throws UnusableImage for an image it cannot send. */
export function converseBody(json: Json, options: ConverseBodyOptions): Json {
  const messages = options.systemPrompt
    ? withSystemPrompt(json.messages, options.systemPrompt)
    : Array.isArray(json.messages)
      ? json.messages
      : []
  const { system, turns } = convertMessages(messages, options.images)
  const body: Json = {
    messages: turns.map((turn) => ({
      role: turn.role,
      content: turn.content.map(converseBlock).filter((block): block is Json => block !== undefined),
    })),
  }
  if (system.length > 0) body.system = system.map((text) => ({ text }))
  const inference = inferenceConfig(json)
  if (inference) body.inferenceConfig = inference
  const tools = toolConfig(json.tools, json.tool_choice)
  if (tools) body.toolConfig = tools
  // Anthropic's own parameters, which Converse passes to Claude as they are.
  if (isClaude(options.modelId)) {
    const extra: Json = {}
    if (typeof json.top_k === 'number') extra.top_k = json.top_k
    if (isRecord(json.thinking)) extra.thinking = json.thinking
    if (Object.keys(extra).length > 0) body.additionalModelRequestFields = extra
  }
  return body
}
