import { createRequire } from 'node:module'
import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'

export type EncodingName = 'cl100k_base' | 'o200k_base'

/** Models released since gpt-4o use the o200k vocabulary; everything else (and unknown models) cl100k. */
const O200K_PREFIXES = ['gpt-4o', 'chatgpt-4o', 'gpt-4.1', 'gpt-4.5', 'gpt-5', 'o1', 'o3', 'o4']

export function encodingForModel(model: string): EncodingName {
  return O200K_PREFIXES.some((prefix) => model.startsWith(prefix)) ? 'o200k_base' : 'cl100k_base'
}

// Each vocabulary takes 0.2-0.3 s and tens of MB to load, so it is loaded on first use (synchronously,
// through require, so counting stays a plain function call) and kept for the life of the process.
const require = createRequire(import.meta.url)
const loaded = new Map<EncodingName, GptEncoding>()

export function getEncoder(name: EncodingName): GptEncoding {
  let encoder = loaded.get(name)
  if (!encoder) {
    const module = require(`gpt-tokenizer/encoding/${name}`) as { default: GptEncoding }
    encoder = module.default
    loaded.set(name, encoder)
  }
  return encoder
}

/** Loads both vocabularies now, e.g. at startup, so the first relay request does not pay for it. */
export function preloadTokenizers(): void {
  getEncoder('cl100k_base')
  getEncoder('o200k_base')
}
