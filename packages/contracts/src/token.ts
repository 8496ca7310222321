import { z } from 'zod'

/** Longest token name the API accepts (one-api's controller limit). */
export const TOKEN_NAME_MAX_LENGTH = 30
/** The subnet column is varchar(255). */
export const TOKEN_SUBNET_MAX_LENGTH = 255
/** Models are stored comma-joined in a text column; this keeps them within MySQL's TEXT. */
export const TOKEN_MODELS_MAX_LENGTH = 10_000
/**
 * Keys are stored and returned by the API without it, as one-api does (its console adds the prefix
 * when it shows or copies a key); the relay accepts a key with or without it.
 */
export const TOKEN_KEY_PREFIX = 'sk-'

/** The key as a client sends it: `sk-` and the bare key the API returns. */
export function tokenKeyForUse(key: string): string {
  return key.startsWith(TOKEN_KEY_PREFIX) ? key : TOKEN_KEY_PREFIX + key
}
/** `expired_time` value meaning "never expires". */
export const NEVER_EXPIRES = -1
/** Unix seconds beyond this are almost surely milliseconds sent by mistake (year 5138). */
const LATEST_EXPIRY_SECONDS = 100_000_000_000

export const TOKEN_EXPIRED_MESSAGE =
  'the token has expired: change its expiry time or set it to never expire first'
export const TOKEN_EXHAUSTED_MESSAGE =
  'the token quota is used up: raise its quota or make it unlimited first'
export const TOKEN_EXPIRY_IN_PAST_MESSAGE =
  'the expiry time is in the past: choose a later time, or -1 for never'

/** Splits a comma list (or takes an array), trims each entry and drops empties and duplicates. */
export function splitList(value: string | readonly string[] | null | undefined): string[] {
  const items = typeof value === 'string' ? value.split(',') : (value ?? [])
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))]
}

const subnetEntry = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()])

/** Returns the first entry that is neither an IPv4/IPv6 address nor a CIDR, if any. */
export function findInvalidSubnet(entries: readonly string[]): string | undefined {
  return entries.find((entry) => !subnetEntry.safeParse(entry).success)
}

const listInput = z.union([z.string(), z.array(z.string({ error: 'list entries must be strings' }))])

const nameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(TOKEN_NAME_MAX_LENGTH, `name must be at most ${TOKEN_NAME_MAX_LENGTH} characters`)

const remainQuotaSchema = z
  .number({ error: 'remain_quota must be an integer' })
  .int('remain_quota must be an integer')
  .min(0, 'remain_quota must not be negative')

const expiredTimeSchema = z
  .number({ error: 'expired_time must be unix seconds or -1' })
  .int('expired_time must be unix seconds or -1')
  .refine((value) => value === NEVER_EXPIRES || value > 0, 'expired_time must be unix seconds or -1')
  .refine((value) => value < LATEST_EXPIRY_SECONDS, 'expired_time must be in seconds, not milliseconds')

/**
 * The token fields a user may set. Two body forms are accepted: the console's form
 * fields (`models`, `subnet`) and the default-token form (`model_limits_enabled`,
 * `model_limits`). When `model_limits_enabled` is a boolean it decides: true takes
 * `model_limits` (or `models`), false clears the restriction; otherwise `models` is used.
 */
const unlimitedQuotaSchema = z.boolean({ error: 'unlimited_quota must be true or false' })
const tokenFields = {
  name: nameSchema,
  remain_quota: remainQuotaSchema,
  expired_time: expiredTimeSchema,
  unlimited_quota: unlimitedQuotaSchema,
  models: listInput.nullish(),
  model_limits_enabled: z.boolean({ error: 'model_limits_enabled must be true or false' }).optional(),
  model_limits: listInput.nullish(),
  subnet: z.string({ error: 'subnet must be a comma-separated string' }).nullish(),
}

interface RawTokenFields {
  models?: string | string[] | null
  model_limits_enabled?: boolean
  model_limits?: string | string[] | null
  subnet?: string | null
}

/** Applies the body-form rule and the list rules; adds an issue for a bad subnet or size. */
function normalizeLists<T extends RawTokenFields>(input: T, context: z.RefinementCtx) {
  const { models, model_limits_enabled, model_limits, subnet, ...rest } = input
  const chosen =
    model_limits_enabled === undefined ? models : model_limits_enabled ? (model_limits ?? models) : ''
  const modelList = splitList(chosen)
  const subnetList = splitList(subnet)
  const invalid = findInvalidSubnet(subnetList)
  if (invalid !== undefined) {
    context.addIssue({ code: 'custom', message: `invalid subnet: ${invalid}`, path: ['subnet'] })
  }
  const joinedModels = modelList.join(',')
  const joinedSubnet = subnetList.join(',')
  if (joinedModels.length > TOKEN_MODELS_MAX_LENGTH) {
    context.addIssue({ code: 'custom', message: 'the model list is too long', path: ['models'] })
  }
  if (joinedSubnet.length > TOKEN_SUBNET_MAX_LENGTH) {
    context.addIssue({
      code: 'custom',
      message: `subnet must be at most ${TOKEN_SUBNET_MAX_LENGTH} characters`,
      path: ['subnet'],
    })
  }
  return { ...rest, models: joinedModels, subnet: joinedSubnet }
}

/** `POST /api/token/`: quota 0, never expiring and limited unless said otherwise. */
export const createTokenInputSchema = z
  .object({
    ...tokenFields,
    remain_quota: remainQuotaSchema.default(0),
    expired_time: expiredTimeSchema.default(NEVER_EXPIRES),
    unlimited_quota: unlimitedQuotaSchema.default(false),
  })
  .transform(normalizeLists)
export type CreateTokenInput = z.infer<typeof createTokenInputSchema>

const tokenIdSchema = z
  .number({ error: 'id must be a positive integer' })
  .int('id must be a positive integer')
  .positive('id must be a positive integer')

/**
 * `PUT /api/token/` (full update: expiry and the unlimited flag are required, lists left out are
 * cleared). `remain_quota` may be left out to keep the current balance untouched: the column is
 * then not written at all, so a form that did not touch the balance cannot overwrite what the
 * token's requests spent since it loaded (one-api clients always send it, which sets it as
 * before). `status` is optional: 1 asks to enable, 2 to disable; 3 and 4 (sent back unchanged by
 * an edit form) keep the current status.
 */
export const updateTokenInputSchema = z
  .object({
    ...tokenFields,
    remain_quota: remainQuotaSchema.optional(),
    id: tokenIdSchema,
    status: z
      .number({ error: 'status must be 1 (enabled) or 2 (disabled)' })
      .int('status must be 1 (enabled) or 2 (disabled)')
      .min(1, 'status must be 1 (enabled) or 2 (disabled)')
      .max(4, 'status must be 1 (enabled) or 2 (disabled)')
      .optional(),
  })
  .transform(normalizeLists)
export type UpdateTokenInput = z.infer<typeof updateTokenInputSchema>

/** `PUT /api/token/?status_only=true`. */
export const updateTokenStatusInputSchema = z.object({
  id: tokenIdSchema,
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' }),
})
export type UpdateTokenStatusInput = z.infer<typeof updateTokenStatusInputSchema>

/** `GET /api/token/?p=&order=`: an unknown or empty order means newest first, as one-api. */
export const tokenListQuerySchema = z.object({
  p: z.preprocess(
    (value) => (value === '' || value === undefined ? '0' : value),
    z
      .string({ error: 'p must be a page number from 0' })
      .regex(/^\d{1,9}$/, 'p must be a page number from 0')
      .transform(Number),
  ),
  order: z
    .string({ error: 'order must be a single value' })
    .optional()
    .transform((value) => (value === 'remain_quota' || value === 'used_quota' ? value : 'id')),
})
export type TokenOrder = z.infer<typeof tokenListQuerySchema>['order']

/** `GET /api/token/search?keyword=`: a name prefix; blank lists the newest tokens. */
export const tokenSearchQuerySchema = z.object({
  keyword: z.preprocess(
    (value) => value ?? '',
    z
      .string({ error: 'keyword must be a single value' })
      .trim()
      .max(TOKEN_NAME_MAX_LENGTH, `keyword must be at most ${TOKEN_NAME_MAX_LENGTH} characters`),
  ),
})

/** A token as every token route returns it. */
export interface TokenView {
  id: number
  name: string
  /** With the `sk-` prefix. */
  key: string
  status: number
  used_quota: number
  remain_quota: number
  unlimited_quota: boolean
  created_time: number
  accessed_time: number
  expired_time: number
  models: string
  subnet: string
  model_limits_enabled: boolean
  model_limits: string
}
