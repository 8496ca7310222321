/**
 * Which channel types speak OpenAI's wire format (one-api's "openai" API type), and their
 * default base URLs from the channel type catalogue of record.
 */
import { channelTypeInfo } from '@one-api/contracts/channel-types'

/** Every channel type id the OpenAI-compatible adaptor serves. */
export const OPENAI_FORMAT_CHANNEL_TYPES: readonly number[] = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 26, 27, 28, 29, 31, 32, 36, 39, 40, 41, 44, 45, 47,
  48, 49, 50, 51,
]

/** The type's default base URL ('' when the channel must configure one: Azure, Custom, 50). */
export const defaultBaseUrl = (type: number): string => channelTypeInfo(type)?.defaultBaseUrl ?? ''
