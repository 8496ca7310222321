import { ChannelStatus, Role } from '@one-api/contracts'
import type { FastifyReply } from 'fastify'
import type { AppContext, ChannelTests } from '../../app-context.ts'
import { findChannelById } from '../../db/repositories/channels-repository.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { idOf } from '../../http/request-params.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'
import { fetchBalance, UnsupportedBalance } from '../../relay/health/balance.ts'
import { applyTestResult, testChannel } from '../../relay/health/channel-tester.ts'
import { toRoutedChannel } from '../../relay/routing/routed-channel.ts'

/** Channel test, test-all and balance, admin only. */
export function channelTestRoutes(context: AppContext, runner: ChannelTests): RouteDefinition[] {
  const updateBalance = async (id: number) => {
    const row = await findChannelById(context.db, id)
    if (!row) throw notFound('channel not found')
    const balance = await fetchBalance(toRoutedChannel(row))
    await context.db
      .updateTable('channels')
      .set({ balance, balance_updated_time: Math.floor(Date.now() / 1000) })
      .where('id', '=', id)
      .execute()
    return balance
  }
  return [
    {
      method: 'GET',
      url: '/api/channel/test/:id',
      access: Role.Admin,
      changesState: true,
      handler: async (request) => {
        const row = await findChannelById(context.db, idOf(request))
        if (!row) throw notFound('channel not found')
        const model = (request.query as { model?: string }).model?.trim() || undefined
        const result = await testChannel(context, row, model)
        await applyTestResult(context, row, result)
        return { success: result.ok, message: result.message, time: result.seconds, model: result.model }
      },
    },
    {
      method: 'GET',
      url: '/api/channel/test',
      access: Role.Admin,
      changesState: true,
      handler: async (request) => {
        const scope = (request.query as { scope?: string }).scope ?? 'all'
        if (scope !== 'all' && scope !== 'disabled') throw badRequest("scope must be 'all' or 'disabled'")
        if (!runner.start(scope)) throw badRequest('A test of all channels is already running')
        return ok(undefined, 'Test started: refresh the page to see the results')
      },
    },
    {
      method: 'GET',
      url: '/api/channel/update_balance/:id',
      access: Role.Admin,
      changesState: true,
      handler: async (request, reply: FastifyReply) => {
        try {
          const balance = await updateBalance(idOf(request))
          return { success: true, message: '', balance, data: balance }
        } catch (error) {
          if (error instanceof UnsupportedBalance)
            return reply.send({ success: false, message: 'not supported', balance: 0 })
          if (error instanceof Error && !('status' in error)) {
            return reply.send({
              success: false,
              message: `balance query failed: ${error.message}`,
              balance: 0,
            })
          }
          throw error
        }
      },
    },
    {
      method: 'GET',
      url: '/api/channel/update_balance',
      access: Role.Admin,
      changesState: true,
      handler: async () => {
        const rows = await context.db
          .selectFrom('channels')
          .select('id')
          .where('status', '=', ChannelStatus.enabled)
          .execute()
        let updated = 0
        for (const row of rows) {
          try {
            await updateBalance(row.id)
            updated++
          } catch {
            // Unsupported types and failed queries are skipped; single updates report them.
          }
        }
        return ok(updated, `Updated the balance of ${updated} channel(s)`)
      },
    },
  ]
}
