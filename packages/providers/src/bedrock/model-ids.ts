/**
 * Model names as clients ask for them → Bedrock model ids, as one-api maps them (its Claude and
 * Llama 3 tables). A name that already is a Bedrock id (`anthropic.…`, a cross-region profile
 * `us.anthropic.…`, an ARN) is passed on as it is.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-ids.html
 */
export const BEDROCK_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-instant-1.2': 'anthropic.claude-instant-v1',
  'claude-2.0': 'anthropic.claude-v2',
  'claude-2.1': 'anthropic.claude-v2:1',
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-sonnet-latest': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'llama3-8b-8192': 'meta.llama3-8b-instruct-v1:0',
  'llama3-70b-8192': 'meta.llama3-70b-instruct-v1:0',
}

/** The Bedrock id for `model`, or undefined when it is neither in the table nor an id itself. */
export function bedrockModelId(model: string): string | undefined {
  const mapped = BEDROCK_MODEL_IDS[model]
  if (mapped) return mapped
  return model.includes('.') || model.startsWith('arn:') ? model : undefined
}

/** Claude models take Anthropic's own fields (top_k, thinking) through additionalModelRequestFields. */
export const isClaude = (modelId: string) => /(^|\.)anthropic\.claude/.test(modelId)
