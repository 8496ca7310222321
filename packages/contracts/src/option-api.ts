import { z } from 'zod'
import { OPTION_DEFINITIONS, type OptionKey, RATIO_OPTION_LABELS } from './options.ts'

export const updateOptionInputSchema = z.object({
  key: z.string({ error: 'key is required' }).min(1, 'key is required').max(64),
  value: z.union([z.string().max(1_000_000), z.number(), z.boolean()], {
    error: 'value must be a string, number or boolean',
  }),
})
export type UpdateOptionInput = z.infer<typeof updateOptionInputSchema>

/**
 * A ModelRatio / CompletionRatio / GroupRatio value: JSON text of an object from name to a
 * non-negative number. `label` names the option in the message ("model ratio is not valid JSON").
 */
export function ratioJsonSchema(label: string) {
  return z.string().superRefine((text, context) => {
    const problem = ratioJsonProblem(label, text)
    if (problem) context.addIssue({ code: 'custom', message: problem })
  })
}

/** Why `text` is not a ratio table, or undefined when it is one. */
export function ratioJsonProblem(label: string, text: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return `${label} is not valid JSON`
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `${label} is not valid JSON: it must be an object of name to number`
  }
  for (const [name, ratio] of Object.entries(parsed)) {
    if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0) {
      return `${label} is not valid JSON: the value of "${name}" must be a non-negative number`
    }
  }
  return undefined
}

/**
 * The check `PUT /api/option/` makes of one option's value, for the settings forms to refuse a
 * mistake before sending it (same messages). Booleans, free text and secrets take anything.
 */
export function optionValueSchema(key: OptionKey) {
  const kind = OPTION_DEFINITIONS[key].kind
  if (kind === 'json-ratio') return ratioJsonSchema(RATIO_OPTION_LABELS[key] ?? key)
  if (kind === 'integer') {
    return z.string().trim().regex(/^\d+$/, `${key} must be a non-negative integer`)
  }
  if (kind === 'number') {
    return z
      .string()
      .trim()
      .refine((text) => text !== '' && Number.isFinite(Number(text)) && Number(text) >= 0, {
        message: `${key} must be a non-negative number`,
      })
  }
  if (kind === 'url') {
    return z
      .string()
      .trim()
      .refine((text) => text === '' || /^https?:\/\/[^\s]+$/i.test(text), {
        message: `${key} must be an http(s) URL`,
      })
  }
  return z.string()
}
