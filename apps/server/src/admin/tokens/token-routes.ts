import { ITEMS_PER_PAGE, MAX_RECENT_ITEMS, Role, TokenStatus } from '@one-api/contracts'
import {
  createTokenInputSchema,
  tokenListQuerySchema,
  tokenSearchQuerySchema,
  updateTokenInputSchema,
  updateTokenStatusInputSchema,
} from '@one-api/contracts/token'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { generateTokenKey } from '../../auth/random.ts'
import { withQuotaLessHolds } from '../../db/repositories/quota-held.ts'
import {
  createToken,
  deleteOwnToken,
  findOwnToken,
  listOwnTokens,
  searchOwnTokens,
  type TokenChanges,
  type TokenRow,
  updateOwnToken,
} from '../../db/repositories/tokens-repository.ts'
import { toBoolean } from '../../db/schema.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { BusTopic } from '../../platform/bus-topics.ts'
import { assertExpiryNotPast, nowSeconds, resolveStatus } from './token-status.ts'
import { toTokenView } from './token-view.ts'

const NOT_FOUND = 'Token not found'

/** `:id` of a URL; anything but a positive integer is a bad request. */
function parseTokenId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? ''
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0)
    throw badRequest('the token id must be a positive integer')
  return Number(raw)
}

/**
 * API tokens (`sk-` keys) of the signed-in user. Every route reads and writes the caller's own
 * tokens only; a token of someone else answers 404 exactly like one that does not exist.
 */
export function tokenRoutes(context: AppContext): RouteDefinition[] {
  const { db, bus } = context

  const findOrFail = async (userId: number, id: number): Promise<TokenRow> => {
    const token = await findOwnToken(db, userId, id)
    if (!token) throw notFound(NOT_FOUND)
    return token
  }
  // The relay caches tokens by key; every node drops its copy when one changes. The key is a
  // secret: a failed announcement is logged with the token's id instead.
  const announce = (token: Pick<TokenRow, 'id' | 'key'>) =>
    bus.publish(BusTopic.tokenChanged, token.key, `token #${token.id}`)

  const deleteToken: RouteDefinition['handler'] = async (request) => {
    const user = currentUser(request)
    const token = await findOrFail(user.id, parseTokenId(request))
    if (!(await deleteOwnToken(db, user.id, token.id))) throw notFound(NOT_FOUND)
    await announce(token)
    return ok()
  }

  return [
    {
      method: 'GET',
      url: '/api/token/',
      access: Role.Common,
      handler: async (request) => {
        const query = parseInput(tokenListQuerySchema, request.query)
        const rows = await listOwnTokens(
          db,
          currentUser(request).id,
          query.order,
          query.p * ITEMS_PER_PAGE,
          ITEMS_PER_PAGE,
        )
        return ok(rows.map(toTokenView))
      },
    },
    {
      method: 'GET',
      url: '/api/token/search',
      access: Role.Common,
      handler: async (request) => {
        const { keyword } = parseInput(tokenSearchQuerySchema, request.query)
        const rows = await searchOwnTokens(db, currentUser(request).id, keyword, MAX_RECENT_ITEMS)
        return ok(rows.map(toTokenView))
      },
    },
    {
      method: 'GET',
      url: '/api/token/:id',
      access: Role.Common,
      handler: async (request) =>
        ok(toTokenView(await findOrFail(currentUser(request).id, parseTokenId(request)))),
    },
    {
      method: 'POST',
      url: '/api/token/',
      access: Role.Common,
      handler: async (request) => {
        const user = currentUser(request)
        const input = parseInput(createTokenInputSchema, request.body)
        assertExpiryNotPast(input.expired_time)
        const now = nowSeconds()
        const token = await createToken(db, {
          user_id: user.id,
          key: generateTokenKey(),
          status: TokenStatus.enabled,
          name: input.name,
          created_time: now,
          accessed_time: now,
          expired_time: input.expired_time,
          remain_quota: input.remain_quota,
          unlimited_quota: input.unlimited_quota,
          used_quota: 0,
          models: input.models,
          subnet: input.subnet,
        })
        await announce(token)
        return ok(toTokenView(token))
      },
    },
    {
      method: 'PUT',
      url: '/api/token/',
      access: Role.Common,
      handler: async (request) => {
        const user = currentUser(request)
        const statusOnly = (request.query as { status_only?: string }).status_only
        // one-api's console sends `status_only=1`; ours sends `true`. Both mean a status toggle.
        if (statusOnly !== undefined && statusOnly !== '' && statusOnly !== 'false') {
          const input = parseInput(updateTokenStatusInputSchema, request.body)
          const token = await findOrFail(user.id, input.id)
          const status = resolveStatus(token.status, input.status, {
            expired_time: Number(token.expired_time),
            remain_quota: Number(token.remain_quota),
            unlimited_quota: toBoolean(token.unlimited_quota),
          })
          await updateOwnToken(db, user.id, token.id, { status })
          await announce(token)
          return ok(toTokenView(await findOrFail(user.id, token.id)))
        }
        const input = parseInput(updateTokenInputSchema, request.body)
        const token = await findOrFail(user.id, input.id)
        // An unchanged past expiry may be sent back by an edit form (renaming an expired token).
        if (input.expired_time !== Number(token.expired_time)) assertExpiryNotPast(input.expired_time)
        // Left out, the balance stays as stored: the checks below judge the stored one.
        const storedQuota = Number(token.remain_quota)
        const remainQuota = input.remain_quota ?? storedQuota
        const status = resolveStatus(token.status, input.status, {
          expired_time: input.expired_time,
          remain_quota: remainQuota,
          unlimited_quota: input.unlimited_quota,
        })
        const changes: TokenChanges = {
          name: input.name,
          status,
          expired_time: input.expired_time,
          unlimited_quota: input.unlimited_quota,
          models: input.models,
          subnet: input.subnet,
        }
        // Written only when sent and changed, so renaming a token never overwrites what its requests
        // spend meanwhile; a new balance is what is left after the requests in flight have settled:
        // their settlements give back what they did not spend of their holds, so the holds are
        // subtracted. That holds for every token limited from now on (a token made limited
        // mid-request gets back reservations it never paid, even when the stored balance is kept);
        // an unlimited token's balance is not moved by its requests.
        const limited = !input.unlimited_quota
        const madeLimited = limited && toBoolean(token.unlimited_quota)
        const quotaChanged =
          (input.remain_quota !== undefined && input.remain_quota !== storedQuota) || madeLimited
        if (quotaChanged && limited) {
          await withQuotaLessHolds(db, 'tokens', token.id, remainQuota, (trx, quota) =>
            updateOwnToken(trx, user.id, token.id, { ...changes, remain_quota: quota }),
          )
        } else {
          if (quotaChanged) changes.remain_quota = remainQuota
          await updateOwnToken(db, user.id, token.id, changes)
        }
        await announce(token)
        return ok(toTokenView(await findOrFail(user.id, token.id)))
      },
    },
    { method: 'DELETE', url: '/api/token/:id', access: Role.Common, handler: deleteToken },
    { method: 'DELETE', url: '/api/token/:id/', access: Role.Common, handler: deleteToken },
  ]
}
