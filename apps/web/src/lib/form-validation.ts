import type { FormErrors } from '@mantine/form'
import type { z } from 'zod'

/**
 * A `validate` function for `useForm` from a zod schema of `packages/contracts`, so the console
 * refuses a mistake with the very message the server would send. The form's values become the
 * API payload first (`toPayload`); an issue is shown on the field named by `fieldOf` (by default
 * the payload field of the same name), or on `fallbackField` when the form has no such field.
 */
export function schemaValidator<Values, Payload>(
  schema: z.ZodType<unknown, Payload>,
  toPayload: (values: Values) => Payload,
  options: { fieldOf?: Record<string, string>; fallbackField: string },
): (values: Values) => FormErrors {
  return (values) => {
    const result = schema.safeParse(toPayload(values))
    if (result.success) return {}
    const errors: FormErrors = {}
    for (const issue of result.error.issues) {
      const path = String(issue.path[0] ?? '')
      const field = options.fieldOf?.[path] ?? (path || options.fallbackField)
      errors[field] ??= issue.message
    }
    return errors
  }
}
