import { OPTION_DEFINITIONS, type OptionKey } from '@one-api/contracts'
import type { OptionValues } from '../api/list-options.ts'
import type { OptionChange } from '../api/update-options.ts'

/** A settings form's values: the text of each of its options (numbers are typed as text too). */
export type OptionFormValues = Partial<Record<OptionKey, string>>

/** Addresses are stored without trailing slashes, so paths can be appended to them. */
export function withoutTrailingSlash(text: string): string {
  return text.trim().replace(/\/+$/, '')
}

/** The value a form field is saved as: URLs without trailing slashes, numbers without spaces. */
export function savedValue(key: OptionKey, text: string): string {
  const kind = OPTION_DEFINITIONS[key].kind
  if (kind === 'url') return withoutTrailingSlash(text)
  if (kind === 'integer' || kind === 'number') return text.trim()
  if (kind === 'json-ratio') return compactJson(text)
  return text
}

/** A ratio table one entry a line, for reading and editing. */
function indentedJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** A ratio table in the server's compact form, so re-indenting it is not a change. */
function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return text
  }
}

/**
 * What a form sends: a secret only when something was typed (secrets are never shown back, so an
 * empty field means "keep"), any other option only when it differs from the stored value.
 */
export function changedOptions(
  keys: readonly OptionKey[],
  stored: OptionValues,
  values: OptionFormValues,
): OptionChange[] {
  const changes: OptionChange[] = []
  for (const key of keys) {
    const text = values[key] ?? ''
    if (OPTION_DEFINITIONS[key].kind === 'secret') {
      if (text.trim() !== '') changes.push({ key, value: text.trim() })
      continue
    }
    const value = savedValue(key, text)
    if (value !== savedValue(key, stored[key] ?? OPTION_DEFINITIONS[key].default))
      changes.push({ key, value })
  }
  return changes
}

/** The form's starting values: the stored options, secrets empty. */
export function formValuesOf(keys: readonly OptionKey[], stored: OptionValues): OptionFormValues {
  const values: OptionFormValues = {}
  for (const key of keys) {
    const kind = OPTION_DEFINITIONS[key].kind
    const value = stored[key] ?? OPTION_DEFINITIONS[key].default
    values[key] = kind === 'secret' ? '' : kind === 'json-ratio' ? indentedJson(value) : value
  }
  return values
}
