import { z } from 'zod'
import { displayNameSchema, passwordSchema, usernameSchema } from './user.ts'

/** Row ids are 32-bit integers in every database one-api supports. */
export const MAX_ROW_ID = 2_147_483_647

/**
 * A row id written as text (a path segment, the `-<id>` of a pinning key): plain digits naming a
 * row that can exist, else undefined. Number() alone would take "1e3" or " 7", and ids past the
 * integer column make PostgreSQL fail the query.
 */
export function parseRowId(text: string): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined
  const id = Number(text)
  return id >= 1 && id <= MAX_ROW_ID ? id : undefined
}

/** A row id in a JSON body. */
export const rowIdSchema = z
  .number({ error: 'id must be a positive integer' })
  .int('id must be a positive integer')
  .min(1, 'id must be a positive integer')
  .max(MAX_ROW_ID, 'id is too large')

/** A quota amount: integer quota units, within what a double holds exactly. */
export const quotaAmountSchema = z
  .number({ error: 'quota must be an integer' })
  .int('quota must be an integer')
  .min(-Number.MAX_SAFE_INTEGER, 'quota is out of range')
  .max(Number.MAX_SAFE_INTEGER, 'quota is out of range')

/** `POST /api/user/`: an administrator creates a normal user. */
export const createUserInputSchema = z.object({
  username: usernameSchema,
  display_name: displayNameSchema.trim().optional(),
  password: passwordSchema,
})
export type CreateUserInput = z.infer<typeof createUserInputSchema>

/**
 * `PUT /api/user/`: full update of another user. A blank password keeps the current one; role and
 * status are changed only through `POST /api/user/manage`, so they are ignored here. `quota` may be
 * left out to keep the current balance untouched: the column is then not written at all, so a form
 * that did not touch the quota cannot overwrite what the user's requests spent since it loaded
 * (one-api clients always send it, which sets it as before).
 */
/** `PUT /api/user/`: fields left out keep their stored value. */
export const updateUserInputSchema = z.object({
  id: rowIdSchema,
  username: usernameSchema.optional(),
  display_name: displayNameSchema.trim().optional(),
  password: z.union([z.literal(''), passwordSchema]).optional(),
  email: z.union([z.literal(''), z.email('email is not a valid address').max(50)]).optional(),
  group: z
    .string({ error: 'group must be a string' })
    .trim()
    .min(1, 'group must not be empty')
    .max(64)
    .optional(),
  quota: quotaAmountSchema.optional(),
})
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>

export const MANAGE_USER_ACTIONS = ['delete', 'disable', 'enable', 'promote', 'demote'] as const
export type ManageUserAction = (typeof MANAGE_USER_ACTIONS)[number]

/** `POST /api/user/manage`. */
export const manageUserInputSchema = z.object({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(64),
  action: z.enum(MANAGE_USER_ACTIONS, {
    error: `action must be one of ${MANAGE_USER_ACTIONS.join(', ')}`,
  }),
})
export type ManageUserInput = z.infer<typeof manageUserInputSchema>

/** `POST /api/topup`: an administrator credits (or, with a negative amount, debits) a user. */
export const adminTopUpInputSchema = z.object({
  user_id: rowIdSchema,
  quota: quotaAmountSchema.refine((value) => value !== 0, 'quota must not be zero'),
  remark: z.string({ error: 'remark must be a string' }).trim().max(255).optional(),
})
export type AdminTopUpInput = z.infer<typeof adminTopUpInputSchema>

/** `POST /api/user/topup`: a user redeems a code. */
export const redeemCodeInputSchema = z.object({
  key: z
    .string({ error: 'key is required' })
    .trim()
    .min(1, 'key is required')
    .max(64, 'invalid redemption code'),
})
export type RedeemCodeInput = z.infer<typeof redeemCodeInputSchema>

/** Orders of the admin user list (descending), else newest first. */
export const USER_LIST_ORDERS = ['quota', 'used_quota', 'request_count'] as const
export type UserListOrder = (typeof USER_LIST_ORDERS)[number]
