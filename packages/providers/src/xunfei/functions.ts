/**
 * Spark's function calling over the WebSocket API: the functions offered go in
 * `payload.functions.text` (name, description, JSON-schema parameters); an answer that calls one
 * carries `function_call` (`name`, `arguments` as a JSON string) in its `payload.choices.text`
 * item, in place of content. OpenAI's `tools` (and the older `functions`) map to the first, the
 * second comes back as OpenAI `tool_calls`.
 * https://www.xfyun.cn/doc/spark/Web.html
 */
import { isRecord, type Json } from '../shared/json.ts'

/** A function as Spark takes it. */
interface SparkFunction {
  name: string
  description?: string
  parameters?: unknown
}

function sparkFunction(definition: unknown): SparkFunction | undefined {
  if (!isRecord(definition) || typeof definition.name !== 'string' || definition.name === '') return undefined
  const found: SparkFunction = { name: definition.name }
  if (typeof definition.description === 'string') found.description = definition.description
  if (definition.parameters !== undefined) found.parameters = definition.parameters
  return found
}

/**
 * The functions of an OpenAI chat request for `payload.functions`, or undefined when it offers
 * none or forbids calls (`tool_choice: "none"`; Spark has no way to force one).
 */
export function sparkFunctions(json: Json): { text: SparkFunction[] } | undefined {
  if (json.tool_choice === 'none' || json.function_call === 'none') return undefined
  const tools = Array.isArray(json.tools) ? json.tools : []
  const legacy = Array.isArray(json.functions) ? json.functions : []
  const text = [
    ...tools
      .filter((tool) => isRecord(tool) && tool.type === 'function')
      .map((tool) => (tool as Json).function),
    ...legacy,
  ]
    .map(sparkFunction)
    .filter((found): found is SparkFunction => found !== undefined)
  return text.length > 0 ? { text } : undefined
}

/** A function call read from an answer frame. */
export interface SparkFunctionCall {
  readonly name: string
  /** JSON text, as OpenAI clients expect `function.arguments`. */
  readonly arguments: string
}

/** The `function_call` of one `payload.choices.text` item, if it holds one. */
export function functionCallOf(item: Json): SparkFunctionCall | undefined {
  const call = item.function_call
  if (!isRecord(call) || typeof call.name !== 'string' || call.name === '') return undefined
  const raw = call.arguments
  const args = typeof raw === 'string' ? raw : raw === undefined ? '{}' : JSON.stringify(raw)
  return { name: call.name, arguments: args }
}

/** OpenAI's id for Spark's function call: made from the answer's sid and the call's position. */
export const toolCallId = (sid: string, index: number) => `call_${sid}_${index}`
