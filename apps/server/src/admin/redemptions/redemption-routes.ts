import { ITEMS_PER_PAGE, MAX_RECENT_ITEMS, RedemptionStatus, Role } from '@one-api/contracts'
import {
  createRedemptionInputSchema,
  type RedemptionView,
  redemptionStatusInputSchema,
  updateRedemptionInputSchema,
} from '@one-api/contracts/redemption'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { randomHex32 } from '../../auth/random.ts'
import {
  deleteRedemption,
  findRedemptionById,
  insertRedemptions,
  listRedemptions,
  type RedemptionRow,
  searchRedemptions,
  updateRedemption,
  updateUnusedRedemption,
} from '../../db/repositories/redemptions-repository.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { idOf, pageOf, queryText } from '../../http/request-params.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'

const NOT_FOUND = 'Redemption code not found'
const USED_CODE = 'This redemption code has already been used and can no longer be changed'
const USED_QUOTA = 'This redemption code has already been used; its quota can no longer be changed'

export function toRedemptionView(row: RedemptionRow): RedemptionView {
  return {
    id: row.id,
    user_id: Number(row.user_id),
    key: row.key,
    status: row.status,
    name: row.name ?? '',
    quota: Number(row.quota),
    created_time: Number(row.created_time ?? 0),
    redeemed_time: Number(row.redeemed_time ?? 0),
  }
}

/** `?status_only=true` (the console) or `=1` (one-api's own clients). */
function isStatusOnly(request: FastifyRequest): boolean {
  const value = queryText(request, 'status_only')
  return value === 'true' || value === '1'
}

/** Redemption codes: administrators create, list, edit and delete them. */
export function redemptionRoutes(context: AppContext): RouteDefinition[] {
  const { db, dialect } = context

  async function findOrFail(id: number): Promise<RedemptionRow> {
    const row = await findRedemptionById(db, id)
    if (!row) throw notFound(NOT_FOUND)
    return row
  }

  async function remove(request: FastifyRequest) {
    if (!(await deleteRedemption(db, idOf(request)))) throw notFound(NOT_FOUND)
    return ok()
  }

  async function changeStatus(body: unknown): Promise<number> {
    const input = parseInput(redemptionStatusInputSchema, body)
    const existing = await findOrFail(input.id)
    // Conditional on "not used", so a code redeemed meanwhile is never switched back to unused.
    if (
      existing.status === RedemptionStatus.used ||
      !(await updateUnusedRedemption(db, input.id, { status: input.status }))
    ) {
      throw badRequest(USED_CODE)
    }
    return input.id
  }

  async function changeDetails(body: unknown): Promise<number> {
    const input = parseInput(updateRedemptionInputSchema, body)
    const existing = await findOrFail(input.id)
    if (existing.status === RedemptionStatus.used || Number(existing.quota) === input.quota) {
      // The quota of a used code is history: only its name may still change.
      if (Number(existing.quota) !== input.quota) throw badRequest(USED_QUOTA)
      await updateRedemption(db, input.id, { name: input.name })
    } else if (!(await updateUnusedRedemption(db, input.id, { name: input.name, quota: input.quota }))) {
      throw badRequest(USED_QUOTA)
    }
    return input.id
  }

  return [
    {
      method: 'GET',
      url: '/api/redemption/',
      access: Role.Admin,
      handler: async (request) => {
        const rows = await listRedemptions(db, pageOf(request) * ITEMS_PER_PAGE, ITEMS_PER_PAGE)
        return ok(rows.map(toRedemptionView))
      },
    },
    {
      method: 'GET',
      url: '/api/redemption/search',
      access: Role.Admin,
      handler: async (request) => {
        const rows = await searchRedemptions(db, dialect, queryText(request, 'keyword'), MAX_RECENT_ITEMS)
        return ok(rows.map(toRedemptionView))
      },
    },
    {
      method: 'GET',
      url: '/api/redemption/:id',
      access: Role.Admin,
      handler: async (request) => ok(toRedemptionView(await findOrFail(idOf(request)))),
    },
    {
      method: 'POST',
      url: '/api/redemption/',
      access: Role.Admin,
      handler: async (request) => {
        const input = parseInput(createRedemptionInputSchema, request.body)
        const now = Math.floor(Date.now() / 1000)
        const keys = Array.from({ length: input.count }, () => randomHex32())
        const creator = currentUser(request).id
        // One statement in one transaction: either every code exists or none does.
        await db.transaction().execute((trx) =>
          insertRedemptions(
            trx,
            keys.map((key) => ({
              user_id: creator,
              key,
              status: RedemptionStatus.unused,
              name: input.name,
              quota: input.quota,
              created_time: now,
              redeemed_time: 0,
            })),
          ),
        )
        return ok(keys)
      },
    },
    {
      method: 'PUT',
      url: '/api/redemption/',
      access: Role.Admin,
      handler: async (request) => {
        const id = isStatusOnly(request)
          ? await changeStatus(request.body)
          : await changeDetails(request.body)
        return ok(toRedemptionView(await findOrFail(id)))
      },
    },
    // The console calls DELETE /api/redemption/{id}/; the form without the slash works too.
    { method: 'DELETE', url: '/api/redemption/:id', access: Role.Admin, handler: remove },
    { method: 'DELETE', url: '/api/redemption/:id/', access: Role.Admin, handler: remove },
  ]
}
