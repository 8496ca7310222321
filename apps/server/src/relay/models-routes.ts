import { builtInModelCatalogue, CATALOGUE_MODEL_CREATED } from '@one-api/contracts/model-catalogue'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { RelayError, sendRelayError } from './auth/relay-error.ts'
import { authenticateRelay, type RelayCaller } from './auth/token-auth.ts'
import type { RelayServices } from './relay-services.ts'

/** GET /v1/models and /v1/models/{model}: what this token may use, in OpenAI's list shape. */
export function registerModelRoutes(
  app: FastifyInstance,
  _context: AppContext,
  services: RelayServices,
): void {
  const owners = new Map(builtInModelCatalogue().map((model) => [model.id, model.owned_by]))
  const toModel = (id: string) => ({
    id,
    object: 'model',
    created: CATALOGUE_MODEL_CREATED,
    owned_by: owners.get(id) ?? 'custom',
  })
  // A token's model list narrows what its group's channels serve; it never adds to it (a model
  // no channel serves for the group was listed, and a request for it answered 503).
  const available = (caller: RelayCaller) => {
    const served = services.router.modelsForGroup(caller.user.group)
    const allowed = caller.token.models
    return allowed ? served.filter((model) => allowed.has(model)) : served
  }

  app.get('/v1/models', async (request, reply) => {
    try {
      const caller = await authenticateRelay(services.cache, request.headers.authorization, request.ip)
      return { object: 'list', data: available(caller).map(toModel) }
    } catch (error) {
      return sendRelayError(reply, error, request.id)
    }
  })

  // The rest of the path is the model: ids like `openai/gpt-4o` (OpenRouter, Together) are often
  // sent with their slash unencoded, and were answered 501.
  app.get('/v1/models/*', async (request, reply) => {
    try {
      const caller = await authenticateRelay(services.cache, request.headers.authorization, request.ip)
      const model = (request.params as { '*': string })['*']
      if (!available(caller).includes(model)) {
        throw new RelayError(
          404,
          `The model '${model}' does not exist`,
          'model_not_found',
          'invalid_request_error',
          'model',
        )
      }
      return toModel(model)
    } catch (error) {
      return sendRelayError(reply, error, request.id)
    }
  })
}
