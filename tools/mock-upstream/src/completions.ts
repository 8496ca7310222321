/**
 * POST /v1/completions (legacy) in OpenAI's wire format.
 * https://platform.openai.com/docs/api-reference/completions/object
 */
import type { ServerResponse } from 'node:http'
import { CREATED, remember, script } from './chat.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import { writeStream } from './stream-writer.ts'
import { completionPieces, generatedText, piece, promptTokensOf } from './usage-rules.ts'

const usageOf = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
})

export function handleCompletions(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
  faults: FaultPlan,
): Promise<void> | void {
  const { pieces, finishReason } = completionPieces(json, faults.chunks)
  const promptTokens = faults.promptTokens ?? promptTokensOf(json)
  const stream = json.stream === true
  const options = json.stream_options as { include_usage?: unknown } | undefined
  const wantsUsage = !faults.noUsage && (!stream || options?.include_usage === true)
  const usage = wantsUsage ? usageOf(promptTokens, pieces) : undefined
  const key = `completions|${stream}|${model}|${pieces}|${finishReason}|${wantsUsage ? promptTokens : '-'}`
  const head = `{"id":"cmpl-mock","object":"text_completion","created":${CREATED},"model":${JSON.stringify(model)}`
  if (!stream) {
    const body = remember(key, () =>
      JSON.stringify({
        ...JSON.parse(`${head}}`),
        choices: [{ text: generatedText(pieces), index: 0, logprobs: null, finish_reason: finishReason }],
        ...(usage ? { usage } : {}),
      }),
    )
    sendJson(response, 200, body)
    return
  }
  const choice = (text: string, finish: string | null) =>
    `data: ${head},"choices":[{"text":${JSON.stringify(text)},"index":0,"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]}\n\n`
  const length = pieces + 2 + (usage ? 1 : 0)
  const build = () =>
    script(length, (index) => {
      if (index < pieces) return choice(piece(index), null)
      if (index === pieces) return choice('', finishReason)
      if (usage && index === pieces + 1)
        return `data: ${head},"choices":[],"usage":${JSON.stringify(usage)}}\n\n`
      return 'data: [DONE]\n\n'
    })
  return writeStream(response, pieces <= 200 ? remember(key, build) : build(), faults)
}
