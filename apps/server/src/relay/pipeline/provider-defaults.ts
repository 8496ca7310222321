import type { ProviderDefaults } from '@one-api/providers'
import type { Config } from '../../config/env.ts'

/** The provider defaults adaptors read, from the gateway's environment (GEMINI_VERSION, ...). */
export const providerDefaults = (
  config: Pick<Config, 'GEMINI_VERSION' | 'GEMINI_SAFETY_SETTING'>,
): ProviderDefaults => ({
  geminiVersion: config.GEMINI_VERSION,
  geminiSafetySetting: config.GEMINI_SAFETY_SETTING,
})
