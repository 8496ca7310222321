import { isOptionKey, isSecretOption, Role, updateOptionInputSchema } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { badRequest } from '../../http/errors.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'

/** Root-only settings. Secrets are write-only: they are never listed. */
export function optionRoutes(context: AppContext): RouteDefinition[] {
  const { options } = context
  return [
    {
      method: 'GET',
      url: '/api/option/',
      access: Role.Root,
      handler: async () => ok(options.entries().filter((entry) => !isSecretOption(entry.key))),
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
