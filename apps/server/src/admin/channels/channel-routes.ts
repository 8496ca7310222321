import { ITEMS_PER_PAGE, MAX_RECENT_ITEMS, Role } from '@one-api/contracts'
import {
  CHANNEL_FORM_FIELDS,
  channelCreateInputSchema,
  channelSortQuerySchema,
  channelUpdateInputSchema,
} from '@one-api/contracts/channel'
import { builtInModelCatalogue, defaultModelsByChannelType } from '@one-api/contracts/model-catalogue'
import { supportedChannelTypes } from '@one-api/providers'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import {
  type ChannelPatch,
  findChannelById,
  findPublicChannelById,
  listChannels,
  searchChannels,
} from '../../db/repositories/channels-repository.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { idOf, pageOf, queryText } from '../../http/request-params.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { prepareCreate, prepareFullUpdate } from './channel-input.ts'
import {
  createChannels,
  deleteChannelById,
  deleteDisabledChannels,
  updateChannelById,
} from './channel-service.ts'
import { toChannelView } from './channel-view.ts'

function isFormUpdate(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    CHANNEL_FORM_FIELDS.some((field) => Object.hasOwn(body, field))
  )
}

/** Both spellings, with and without the trailing slash one-api's console uses. */
function withSlashes(route: RouteDefinition): RouteDefinition[] {
  const other = route.url.endsWith('/') ? route.url.slice(0, -1) : `${route.url}/`
  return [route, { ...route, url: other }]
}

/** Channel management, with one-api's routes and payloads. Every route is admin-only. */
export function channelRoutes(context: AppContext): RouteDefinition[] {
  const { db } = context
  const readView = async (id: number) => {
    const channel = await findPublicChannelById(db, id)
    if (!channel) throw notFound('channel not found')
    return toChannelView(channel)
  }
  return [
    ...withSlashes({
      method: 'GET',
      url: '/api/channel/',
      access: Role.Admin,
      handler: async (request) => {
        const sort = parseInput(channelSortQuerySchema, request.query)
        const rows = await listChannels(db, pageOf(request) * ITEMS_PER_PAGE, ITEMS_PER_PAGE, sort)
        return ok(rows.map(toChannelView))
      },
    }),
    {
      method: 'GET',
      url: '/api/channel/search',
      access: Role.Admin,
      handler: async (request) => {
        const keyword = queryText(request, 'keyword')
        const sort = parseInput(channelSortQuerySchema, request.query)
        const rows = await searchChannels(db, keyword, MAX_RECENT_ITEMS, sort)
        return ok(rows.map(toChannelView))
      },
    },
    {
      // The channel types the relay can serve today, so the console can flag channels it cannot.
      method: 'GET',
      url: '/api/channel/supported_types',
      access: 10,
      handler: async () => ok(supportedChannelTypes()),
    },
    {
      method: 'GET',
      url: '/api/channel/models',
      access: Role.Admin,
      handler: async () => ok(builtInModelCatalogue()),
    },
    {
      // The console caches this map of channel type -> default models.
      method: 'GET',
      url: '/api/models',
      access: Role.Common,
      handler: async () => ok(defaultModelsByChannelType()),
    },
    ...withSlashes({
      method: 'GET',
      url: '/api/channel/:id',
      access: Role.Admin,
      handler: async (request) => ok(await readView(idOf(request))),
    }),
    ...withSlashes({
      method: 'POST',
      url: '/api/channel/',
      access: Role.Admin,
      handler: async (request) => {
        const input = parseInput(channelCreateInputSchema, request.body)
        const rows = prepareCreate(input, Math.floor(Date.now() / 1000))
        const ids = await createChannels(context, rows)
        return ok(ids.length)
      },
    }),
    ...withSlashes({
      method: 'PUT',
      url: '/api/channel/',
      access: Role.Admin,
      handler: async (request) => {
        const input = parseInput(channelUpdateInputSchema, request.body)
        let patch: ChannelPatch
        if (isFormUpdate(request.body)) {
          const existing = await findChannelById(db, input.id)
          if (!existing) throw notFound('channel not found')
          patch = prepareFullUpdate(existing, input)
        } else {
          patch = {}
          if (input.status !== undefined) patch.status = input.status
          if (input.priority !== undefined) patch.priority = input.priority
          if (input.weight !== undefined) patch.weight = input.weight
          if (Object.keys(patch).length === 0) {
            throw badRequest('nothing to update: send status, priority, weight or the channel form fields')
          }
        }
        await updateChannelById(context, input.id, patch)
        return ok(await readView(input.id))
      },
    }),
    ...withSlashes({
      method: 'DELETE',
      url: '/api/channel/disabled',
      access: Role.Admin,
      handler: async () => ok(await deleteDisabledChannels(context)),
    }),
    ...withSlashes({
      method: 'DELETE',
      url: '/api/channel/:id',
      access: Role.Admin,
      handler: async (request) => {
        await deleteChannelById(context, idOf(request))
        return ok()
      },
    }),
  ]
}
