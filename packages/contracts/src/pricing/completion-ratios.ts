/**
 * Explicit completion ratios (output price / input price). They win over the prefix rules of
 * apps/server/src/billing/pricing/completion-ratio.ts, so they hold the models those rules would
 * price wrongly. Keys may carry a channel type, like model ratios: "llama3-8b-8192(33)" is AWS Bedrock.
 */
export const DEFAULT_COMPLETION_RATIOS: Readonly<Record<string, number>> = {
  // AWS Bedrock Llama 3 (channel type 33)
  'llama3-8b-8192(33)': 0.0006 / 0.0003,
  'llama3-70b-8192(33)': 0.0035 / 0.00265,
  // Whisper is billed on the transcript only.
  'whisper-1': 0,
  // DeepSeek: $0.14 / $0.28 and $0.55 / $2.19 per 1M tokens
  'deepseek-chat': 0.28 / 0.14,
  'deepseek-reasoner': 2.19 / 0.55,
  // Google: $1.25 / $10, $0.30 / $2.50, $0.10 / $0.40 per 1M tokens
  'gemini-2.5-pro': 10 / 1.25,
  'gemini-2.5-flash': 2.5 / 0.3,
  'gemini-2.5-flash-lite': 0.4 / 0.1,
  // xAI: $2 / $10, $3 / $15, $0.30 / $0.50 per 1M tokens
  'grok-2-1212': 5,
  'grok-2-vision-1212': 5,
  'grok-3': 5,
  'grok-3-mini': 0.5 / 0.3,
  'grok-4': 5,
  // Groq and Mistral
  'llama-3.3-70b-versatile': 0.79 / 0.59,
  'open-mistral-nemo': 1,
  'codestral-latest': 0.9 / 0.3,
  // Replicate chat models (https://replicate.com/pricing)
  'ibm-granite/granite-20b-code-instruct-8k': 5,
  'ibm-granite/granite-3.0-2b-instruct': 0.25 / 0.03,
  'ibm-granite/granite-3.0-8b-instruct': 5,
  'ibm-granite/granite-8b-code-instruct-128k': 5,
  'meta/llama-2-13b': 5,
  'meta/llama-2-13b-chat': 5,
  'meta/llama-2-7b': 5,
  'meta/llama-2-7b-chat': 5,
  'meta/meta-llama-3-8b': 5,
  'meta/meta-llama-3-8b-instruct': 5,
  'meta/llama-2-70b': 2.75 / 0.65,
  'meta/llama-2-70b-chat': 2.75 / 0.65,
  'meta/meta-llama-3-70b': 2.75 / 0.65,
  'meta/meta-llama-3-70b-instruct': 2.75 / 0.65,
  'meta/meta-llama-3.1-405b-instruct': 1,
  'mistralai/mistral-7b-instruct-v0.2': 5,
  'mistralai/mistral-7b-v0.1': 5,
  'mistralai/mixtral-8x7b-instruct-v0.1': 1 / 0.3,
}
