import { ChannelType } from '@one-api/contracts/channel-types'
import type { TestApp } from './test-app.ts'

/** Reads straight from the database, to check what the HTTP replies do not show. */
export async function storedChannels(server: TestApp) {
  return server.context.db.selectFrom('channels').selectAll().orderBy('id').execute()
}

export async function storedAbilities(server: TestApp, channelId?: number) {
  let query = server.context.db.selectFrom('abilities').selectAll()
  if (channelId !== undefined) query = query.where('channel_id', '=', channelId)
  const rows = await query.execute()
  return rows
    .map((row) => ({ ...row, enabled: Boolean(row.enabled), priority: Number(row.priority) }))
    .sort(
      (a, b) =>
        a.channel_id - b.channel_id || a.group.localeCompare(b.group) || a.model.localeCompare(b.model),
    )
}

export async function countRows(server: TestApp) {
  const channels = await server.context.db
    .selectFrom('channels')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  const abilities = await server.context.db
    .selectFrom('abilities')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return { channels: Number(channels.count), abilities: Number(abilities.count) }
}

/** A valid channel body; tests override the fields they are about. */
export function channelBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: ChannelType.openAI,
    name: 'primary',
    key: 'sk-test-key-0001',
    base_url: '',
    models: ['gpt-4o', 'gpt-4o-mini'],
    group: ['default'],
    ...overrides,
  }
}
