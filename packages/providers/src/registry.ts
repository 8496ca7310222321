/**
 * Channel type id -> adaptor. Adding a provider means one folder and one line here.
 */
import type { Adaptor } from './adaptor.ts'
import { openAiCompatibleAdaptor } from './openai-compatible/adaptor.ts'
import { OPENAI_FORMAT_CHANNEL_TYPES } from './openai-compatible/default-base-urls.ts'

const adaptors = new Map<number, Adaptor>()
for (const type of OPENAI_FORMAT_CHANNEL_TYPES) adaptors.set(type, openAiCompatibleAdaptor)
// Native adaptors (Anthropic 14, Gemini 24, ...) register here as they are written.

/** The adaptor for a channel type, or undefined when this gateway cannot relay to it yet. */
export const getAdaptor = (channelType: number): Adaptor | undefined => adaptors.get(channelType)

export const supportedChannelTypes = (): number[] => [...adaptors.keys()].sort((left, right) => left - right)
