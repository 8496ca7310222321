import {
  isOptionKey,
  isSecretOption,
  type OptionKey,
  Role,
  updateOptionInputSchema,
} from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { effectiveRatioTable, hasBuiltInRatios } from '../../billing/pricing/effective-ratios.ts'
import { badRequest } from '../../http/errors.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'

/**
 * Root-only settings. Secrets are write-only: they are never listed. ModelRatio and
 * CompletionRatio are listed as the whole table in force, built-in prices included, as one-api's
 * console shows and edits them; saving one stores the table sent.
 */
export function optionRoutes(context: AppContext): RouteDefinition[] {
  const { options } = context
  const listed = (key: OptionKey, value: string) =>
    hasBuiltInRatios(key) ? JSON.stringify(effectiveRatioTable(key, options.ratios(key))) : value
  return [
    {
      method: 'GET',
      url: '/api/option/',
      access: Role.Root,
      handler: async () =>
        ok(
          options
            .entries()
            .filter((entry) => !isSecretOption(entry.key))
            .map((entry) => ({ key: entry.key, value: listed(entry.key, entry.value) })),
        ),
    },
    {
      method: 'PUT',
      url: '/api/option/',
      access: Role.Root,
      handler: async (request) => {
        const input = parseInput(updateOptionInputSchema, request.body)
        if (!isOptionKey(input.key)) throw badRequest(`Unknown option: ${input.key}`)
        const value = await options.update(input.key, input.value)
        return ok(isSecretOption(input.key) ? undefined : { key: input.key, value })
      },
    },
  ]
}
