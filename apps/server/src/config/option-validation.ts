import { OPTION_DEFINITIONS, type OptionKey, RATIO_OPTION_LABELS, ratioJsonProblem } from '@one-api/contracts'
import { badRequest } from '../http/errors.ts'

const THEMES = ['default', 'berry', 'air']

/**
 * Normalises and checks one option value before it is stored. Bad JSON ratios are refused
 * (one-api stored them and emptied its live map); enable-type values become 'true' / 'false'.
 */
export function normalizeOptionValue(key: OptionKey, raw: string | number | boolean): string {
  const definition = OPTION_DEFINITIONS[key]
  const value = typeof raw === 'string' ? raw : String(raw)
  switch (definition.kind) {
    case 'boolean': {
      if (value !== 'true' && value !== 'false') throw badRequest(`${key} must be 'true' or 'false'`)
      return value
    }
    case 'integer': {
      const trimmed = value.trim()
      if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
        throw badRequest(`${key} must be a non-negative integer`)
      }
      return String(Number(trimmed))
    }
    case 'number': {
      const number = Number(value.trim())
      if (value.trim() === '' || !Number.isFinite(number) || number < 0) {
        throw badRequest(`${key} must be a non-negative number`)
      }
      if (key === 'QuotaPerUnit' && number === 0) throw badRequest('QuotaPerUnit must be greater than 0')
      return String(number)
    }
    case 'url': {
      const trimmed = value.trim().replace(/\/+$/, '')
      if (trimmed !== '' && !/^https?:\/\/[^\s]+$/i.test(trimmed))
        throw badRequest(`${key} must be an http(s) URL`)
      return trimmed
    }
    case 'json-ratio':
      return normalizeRatio(key, value)
    default:
      if (key === 'Theme' && !THEMES.includes(value))
        throw badRequest(`Theme must be one of ${THEMES.join(', ')}`)
      return value
  }
}

function normalizeRatio(key: OptionKey, value: string): string {
  const problem = ratioJsonProblem(RATIO_OPTION_LABELS[key] ?? key, value)
  if (problem) throw badRequest(problem)
  return JSON.stringify(JSON.parse(value))
}

/** Switches that need a companion setting first, as one-api guards them. */
export function checkOptionPrerequisites(
  key: OptionKey,
  value: string,
  current: (key: OptionKey) => string,
): void {
  if (value !== 'true') return
  if (key === 'GitHubOAuthEnabled' && !current('GitHubClientId')) {
    throw badRequest('Fill in the GitHub Client Id before enabling GitHub OAuth')
  }
  if (key === 'EmailDomainRestrictionEnabled' && !current('EmailDomainWhitelist')) {
    throw badRequest('Fill in the email domain whitelist before enabling the restriction')
  }
  if (key === 'WeChatAuthEnabled' && !current('WeChatServerAddress')) {
    throw badRequest('Fill in the WeChat server address before enabling WeChat login')
  }
  if (key === 'TurnstileCheckEnabled' && !current('TurnstileSiteKey')) {
    throw badRequest('Fill in the Turnstile site key before enabling Turnstile')
  }
}
