import type { Generated, Insertable } from 'kysely'

/**
 * Kysely types of the one-api-compatible tables. Table and column names are
 * one-api's own so an existing one-api database can be pointed at and upgraded in place.
 * Booleans are read back as 0/1 on SQLite and MySQL: use `toBoolean` when reading them.
 */
export interface UsersTable {
  id: Generated<number>
  username: string
  password: string
  display_name: string
  role: number
  status: number
  email: string
  github_id: string
  wechat_id: string
  lark_id: string
  oidc_id: string
  access_token: string | null
  quota: number
  used_quota: number
  request_count: number
  group: string
  aff_code: string | null
  inviter_id: number
  last_login_ip: string
  last_login_time: number
  created_time: number
}

export interface TokensTable {
  id: Generated<number>
  user_id: number
  key: string
  status: number
  name: string
  created_time: number
  accessed_time: number
  expired_time: number
  remain_quota: number
  unlimited_quota: boolean | number
  used_quota: number
  models: string | null
  subnet: string | null
}

export interface ChannelsTable {
  id: Generated<number>
  type: number
  key: string
  status: number
  name: string
  weight: number
  created_time: number
  test_time: number
  response_time: number
  base_url: string | null
  other: string | null
  balance: number
  balance_updated_time: number
  models: string
  group: string
  used_quota: number
  model_mapping: string | null
  priority: number
  config: string | null
  system_prompt: string | null
}

export interface AbilitiesTable {
  group: string
  model: string
  channel_id: number
  enabled: boolean | number
  priority: number
}

export interface RedemptionsTable {
  id: Generated<number>
  user_id: number
  key: string
  status: number
  name: string
  quota: number
  created_time: number
  redeemed_time: number
}

export interface LogsTable {
  id: Generated<number>
  user_id: number
  created_at: number
  type: number
  content: string
  username: string
  token_name: string
  model_name: string
  quota: number
  prompt_tokens: number
  completion_tokens: number
  channel_id: number
  request_id: string
  elapsed_time: number
  is_stream: boolean | number
  system_prompt_reset: boolean | number
  ip: string
}

/** A log row to insert. */
export type NewLog = Insertable<LogsTable>

export interface OptionsTable {
  key: string
  value: string
}

export interface QuotaHoldsTable {
  node_id: string
  token_id: number
  user_id: number
  amount: number
  /** PostgreSQL and MySQL: the ids of the node's last reservation and settlement writes (server-ledger-writes.ts). */
  reserve_write: Generated<number>
  settle_write: Generated<number>
}

export interface RelayNodesTable {
  node_id: string
  heartbeat_at: number
}

export interface MainSchema {
  users: UsersTable
  tokens: TokensTable
  channels: ChannelsTable
  abilities: AbilitiesTable
  redemptions: RedemptionsTable
  options: OptionsTable
  quota_holds: QuotaHoldsTable
  relay_nodes: RelayNodesTable
}

export interface LogSchema {
  logs: LogsTable
}

export function toBoolean(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1
}
