/**
 * Declarative column lists of the one-api-compatible tables. The base migration creates a table
 * that is missing and adds any missing column to a table that exists (an old one-api database),
 * never dropping or retyping theirs.
 */
import { bigint, boolean, id, integer, type TableDefinition, text, varchar } from './column-definitions.ts'
import { usageTables } from './usage-table-definitions.ts'

export const usersTable: TableDefinition = {
  name: 'users',
  columns: [
    id,
    { name: 'username', type: 'varchar(64)', notNull: true, unique: true },
    { name: 'password', type: 'varchar(255)', notNull: true },
    varchar('display_name', 64),
    integer('role', 1),
    integer('status', 1),
    varchar('email', 128),
    varchar('github_id', 128),
    varchar('wechat_id', 128),
    varchar('lark_id', 128),
    varchar('oidc_id', 128),
    { name: 'access_token', type: 'char(32)', unique: true },
    bigint('quota'),
    bigint('used_quota'),
    integer('request_count'),
    varchar('group', 64, 'default'),
    { name: 'aff_code', type: 'varchar(32)', unique: true },
    integer('inviter_id'),
    varchar('last_login_ip', 64),
    bigint('last_login_time'),
    bigint('created_time'),
    // Not in one-api: raised to end every session of the user (sign-out, password change, ban).
    integer('session_version'),
  ],
  indexes: [
    { name: 'idx_users_display_name', columns: ['display_name'] },
    { name: 'idx_users_email', columns: ['email'] },
    { name: 'idx_users_github_id', columns: ['github_id'] },
    { name: 'idx_users_wechat_id', columns: ['wechat_id'] },
    { name: 'idx_users_lark_id', columns: ['lark_id'] },
    { name: 'idx_users_oidc_id', columns: ['oidc_id'] },
    { name: 'idx_users_inviter_id', columns: ['inviter_id'] },
    { name: 'idx_users_last_login_ip', columns: ['last_login_ip'] },
  ],
}

export const tokensTable: TableDefinition = {
  name: 'tokens',
  columns: [
    id,
    integer('user_id'),
    { name: 'key', type: 'char(48)', notNull: true, unique: true },
    integer('status', 1),
    varchar('name', 64),
    bigint('created_time'),
    bigint('accessed_time'),
    bigint('expired_time', -1),
    bigint('remain_quota'),
    boolean('unlimited_quota'),
    bigint('used_quota'),
    text('models'),
    varchar('subnet', 255),
  ],
  // one-api lacks an index on tokens.user_id: every "my tokens" page scanned the table.
  indexes: [
    { name: 'idx_tokens_user_id', columns: ['user_id'] },
    { name: 'idx_tokens_name', columns: ['name'] },
  ],
}

export const channelsTable: TableDefinition = {
  name: 'channels',
  columns: [
    id,
    integer('type'),
    { name: 'key', type: 'text', notNull: true },
    integer('status', 1),
    varchar('name', 128),
    integer('weight'),
    bigint('created_time'),
    bigint('test_time'),
    integer('response_time'),
    varchar('base_url', 255),
    text('other'),
    { name: 'balance', type: 'double', notNull: true, default: 0 },
    bigint('balance_updated_time'),
    text('models'),
    // one-api used varchar(32), which truncated multi-group lists.
    varchar('group', 255, 'default'),
    bigint('used_quota'),
    text('model_mapping'),
    bigint('priority'),
    text('config'),
    text('system_prompt'),
  ],
  indexes: [{ name: 'idx_channels_name', columns: ['name'] }],
}

export const abilitiesTable: TableDefinition = {
  name: 'abilities',
  columns: [
    { name: 'group', type: 'varchar(64)', notNull: true },
    { name: 'model', type: 'varchar(191)', notNull: true },
    { name: 'channel_id', type: 'integer', notNull: true },
    boolean('enabled', true),
    bigint('priority'),
  ],
  primaryKey: ['group', 'model', 'channel_id'],
  indexes: [
    { name: 'idx_abilities_channel_id', columns: ['channel_id'] },
    { name: 'idx_abilities_route', columns: ['group', 'model', 'enabled', 'priority'] },
  ],
}

export const redemptionsTable: TableDefinition = {
  name: 'redemptions',
  columns: [
    id,
    integer('user_id'),
    { name: 'key', type: 'char(32)', notNull: true, unique: true },
    integer('status', 1),
    varchar('name', 64),
    bigint('quota', 100),
    bigint('created_time'),
    bigint('redeemed_time'),
  ],
  indexes: [{ name: 'idx_redemptions_name', columns: ['name'] }],
}

export const optionsTable: TableDefinition = {
  name: 'options',
  columns: [{ name: 'key', type: 'varchar(64)', notNull: true }, text('value')],
  primaryKey: ['key'],
  indexes: [],
}

/**
 * Logs are read newest-first with optional filters; each (filter, id) index lets a page be read
 * by walking one index backwards instead of sorting millions of rows.
 */
export const logsTable: TableDefinition = {
  name: 'logs',
  columns: [
    id,
    integer('user_id'),
    bigint('created_at'),
    integer('type'),
    text('content'),
    varchar('username', 64),
    varchar('token_name', 64),
    varchar('model_name', 128),
    bigint('quota'),
    integer('prompt_tokens'),
    integer('completion_tokens'),
    integer('channel_id'),
    varchar('request_id', 64),
    bigint('elapsed_time'),
    boolean('is_stream'),
    boolean('system_prompt_reset'),
    varchar('ip', 64),
  ],
  indexes: [
    { name: 'idx_logs_user_id_id', columns: ['user_id', 'id'] },
    { name: 'idx_logs_type_id', columns: ['type', 'id'] },
    { name: 'idx_logs_created_at', columns: ['created_at'] },
    { name: 'idx_logs_username_id', columns: ['username', 'id'] },
    { name: 'idx_logs_token_name_id', columns: ['token_name', 'id'] },
    { name: 'idx_logs_model_name_id', columns: ['model_name', 'id'] },
    { name: 'idx_logs_channel_id_id', columns: ['channel_id', 'id'] },
    // Covers the quota sums of the log page (consume logs over a time range) without reading rows.
    {
      name: 'idx_logs_type_created_at_sums',
      columns: ['type', 'created_at', 'quota', 'prompt_tokens', 'completion_tokens'],
    },
  ],
}

export const mainTables = [
  usersTable,
  tokensTable,
  channelsTable,
  abilitiesTable,
  redemptionsTable,
  optionsTable,
]

/**
 * Quota a gateway node holds for requests in flight, per token and user: what its reservations
 * took and its settlements and refunds have not yet given back (billing/ledger/quota-holds.ts).
 * Written in the same transactions as the balances, so a node that dies mid-request leaves a
 * record of what to give back. Not one-api's: one-api loses such reservations.
 */
export const quotaHoldsTable: TableDefinition = {
  name: 'quota_holds',
  columns: [
    { name: 'node_id', type: 'varchar(36)', notNull: true },
    integer('token_id'),
    integer('user_id'),
    bigint('amount'),
    bigint('reserve_write'),
    bigint('settle_write'),
  ],
  primaryKey: ['node_id', 'token_id', 'user_id'],
  indexes: [],
}

/** The gateway nodes alive, by the heartbeat each writes while it runs. */
export const relayNodesTable: TableDefinition = {
  name: 'relay_nodes',
  columns: [{ name: 'node_id', type: 'varchar(36)', notNull: true }, bigint('heartbeat_at')],
  primaryKey: ['node_id'],
  indexes: [],
}

export const quotaHoldTables = [quotaHoldsTable, relayNodesTable]
/**
 * Consume-log (type 2) totals per UTC day (day = floor(created_at / 86400)), kept exact by every
 * log write and delete (db/repositories/log-totals.ts), so the log page's quota sum over a long
 * range reads one row per day instead of every log.
 */
export const logDailyTotalsTable: TableDefinition = {
  name: 'log_daily_totals',
  columns: [bigint('day'), bigint('quota'), bigint('tokens'), bigint('request_count')],
  primaryKey: ['day'],
  indexes: [],
}

export const logTables = [logsTable, logDailyTotalsTable, ...usageTables]
