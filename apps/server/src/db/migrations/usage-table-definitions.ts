import { bigint, integer, type TableDefinition, varchar } from './column-definitions.ts'

/**
 * Consume-log usage per UTC day for the dashboards, kept in the same transaction as the logs
 * (db/repositories/usage-rollups.ts): requests, quota and tokens equal the sums of the stored
 * consume logs; error_count counts upstream attempts that failed (not logged as rows). Eight
 * grains, so that every dashboard query reads at most one row per day and user (or per day,
 * model and channel) of its period, and the unfiltered ones one row per day and model or channel:
 * - usage_daily: day × user × model × channel, read with a user filter (a user's own dashboard)
 *   or for the top users of one model on one channel;
 * - usage_daily_channels: day × model × channel, every total, per-day, per-model and per-channel
 *   figure across all users (indexed by model and by channel for those filters);
 * - usage_daily_users: day × user, the top users across all models and channels;
 * - usage_daily_model_users and usage_daily_channel_users: the top users of one model, or of one
 *   channel;
 * - usage_daily_models and usage_daily_channel_totals: day × model and day × channel, the top models
 *   and channels across everything;
 * - usage_daily_totals: day, the unfiltered per-day figures and each day's version.
 */
const usageCounts = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'error_count']
const usageColumns = [
  bigint('request_count'),
  bigint('quota'),
  bigint('prompt_tokens'),
  bigint('completion_tokens'),
  bigint('error_count'),
]

export const usageDailyTable: TableDefinition = {
  name: 'usage_daily',
  columns: [
    bigint('day'),
    integer('user_id'),
    varchar('model_name', 128),
    integer('channel_id'),
    ...usageColumns,
  ],
  primaryKey: ['user_id', 'day', 'model_name', 'channel_id'],
  // The counts are in the index so the top users of a model on a channel are read from it alone.
  indexes: [
    {
      name: 'idx_usage_daily_model_channel_day',
      columns: ['model_name', 'channel_id', 'day', 'user_id', ...usageCounts],
    },
  ],
  clustered: true,
}

export const usageDailyChannelsTable: TableDefinition = {
  name: 'usage_daily_channels',
  columns: [bigint('day'), varchar('model_name', 128), integer('channel_id'), ...usageColumns],
  primaryKey: ['day', 'model_name', 'channel_id'],
  indexes: [
    { name: 'idx_usage_daily_channels_model', columns: ['model_name', 'day', 'channel_id', ...usageCounts] },
    {
      name: 'idx_usage_daily_channels_channel',
      columns: ['channel_id', 'day', 'model_name', ...usageCounts],
    },
  ],
  clustered: true,
}

export const usageDailyUsersTable: TableDefinition = {
  name: 'usage_daily_users',
  columns: [bigint('day'), integer('user_id'), ...usageColumns],
  primaryKey: ['day', 'user_id'],
  indexes: [],
  clustered: true,
}

export const usageDailyModelUsersTable: TableDefinition = {
  name: 'usage_daily_model_users',
  columns: [varchar('model_name', 128), bigint('day'), integer('user_id'), ...usageColumns],
  primaryKey: ['model_name', 'day', 'user_id'],
  indexes: [],
  clustered: true,
}

export const usageDailyChannelUsersTable: TableDefinition = {
  name: 'usage_daily_channel_users',
  columns: [integer('channel_id'), bigint('day'), integer('user_id'), ...usageColumns],
  primaryKey: ['channel_id', 'day', 'user_id'],
  indexes: [],
  clustered: true,
}

export const usageDailyModelsTable: TableDefinition = {
  name: 'usage_daily_models',
  columns: [bigint('day'), varchar('model_name', 128), ...usageColumns],
  primaryKey: ['day', 'model_name'],
  indexes: [],
  clustered: true,
}

export const usageDailyChannelTotalsTable: TableDefinition = {
  name: 'usage_daily_channel_totals',
  columns: [bigint('day'), integer('channel_id'), ...usageColumns],
  primaryKey: ['day', 'channel_id'],
  indexes: [],
  clustered: true,
}

/**
 * The whole day (every user, model and channel), for the unfiltered per-day figures, with the
 * day's version: one more at every write to the day's usage rows (the dashboards' cache checks it).
 */
export const usageDailyTotalsTable: TableDefinition = {
  name: 'usage_daily_totals',
  columns: [bigint('day'), ...usageColumns, bigint('version')],
  primaryKey: ['day'],
  indexes: [],
  clustered: true,
}

/** Indexes of usage_daily that the tables above replaced; the migration that adds them drops these. */
export const droppedUsageIndexes = ['idx_usage_daily_model_day', 'idx_usage_daily_channel_day']

export const usageTables = [
  usageDailyTable,
  usageDailyChannelsTable,
  usageDailyUsersTable,
  usageDailyModelUsersTable,
  usageDailyChannelUsersTable,
  usageDailyModelsTable,
  usageDailyChannelTotalsTable,
  usageDailyTotalsTable,
]
