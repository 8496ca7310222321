/**
 * An OpenAI chat request as Hunyuan's ChatCompletions input: members capitalised, image parts as
 * `Contents`, tools with their parameters as a JSON string, tool calls and results by id.
 * https://cloud.tencent.com/document/api/1729/105701
 */
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'

function contents(parts: unknown[]): Json[] {
  const result: Json[] = []
  for (const part of parts) {
    if (!isRecord(part)) continue
    if (part.type === 'text') result.push({ Type: 'text', Text: part.text })
    else if (part.type === 'image_url') {
      const image = isRecord(part.image_url) ? part.image_url.url : part.image_url
      result.push({ Type: 'image_url', ImageUrl: { Url: image } })
    }
  }
  return result
}

function toolCalls(calls: unknown[]): Json[] {
  return calls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {}
    return { Id: call.id, Type: 'function', Function: { Name: fn.name, Arguments: fn.arguments } }
  })
}

function message(input: Json): Json {
  const output: Json = { Role: input.role === 'developer' ? 'system' : input.role }
  if (Array.isArray(input.content)) output.Contents = contents(input.content)
  else output.Content = typeof input.content === 'string' ? input.content : ''
  if (Array.isArray(input.tool_calls)) output.ToolCalls = toolCalls(input.tool_calls)
  if (typeof input.tool_call_id === 'string') output.ToolCallId = input.tool_call_id
  return output
}

function tools(list: unknown[]): Json[] {
  return list.filter(isRecord).map((tool) => {
    const fn = isRecord(tool.function) ? tool.function : {}
    return {
      Type: 'function',
      Function: {
        Name: fn.name,
        Description: fn.description,
        Parameters: JSON.stringify(fn.parameters ?? { type: 'object', properties: {} }),
      },
    }
  })
}

/** `tool_choice` as Hunyuan's ToolChoice (none, auto, custom) with CustomTool for a named one. */
function toolChoice(choice: unknown, list: Json[]): Json {
  if (choice === 'none' || choice === 'auto') return { ToolChoice: choice }
  if (isRecord(choice) && isRecord(choice.function)) {
    const name = choice.function.name
    const tool = list.find((entry) => (entry.Function as Json).Name === name)
    return tool ? { ToolChoice: 'custom', CustomTool: tool } : {}
  }
  return {}
}

export function hunyuanBody(json: Json, model: string, stream: boolean, systemPrompt?: string): Json {
  const messages = systemPrompt ? withSystemPrompt(json.messages, systemPrompt) : json.messages
  const body: Json = {
    Model: model,
    Messages: (Array.isArray(messages) ? messages : []).filter(isRecord).map(message),
    Stream: stream,
  }
  if (typeof json.temperature === 'number') body.Temperature = json.temperature
  if (typeof json.top_p === 'number') body.TopP = json.top_p
  if (Array.isArray(json.tools) && json.tools.length > 0) {
    body.Tools = tools(json.tools)
    Object.assign(body, toolChoice(json.tool_choice, body.Tools as Json[]))
  }
  return body
}
