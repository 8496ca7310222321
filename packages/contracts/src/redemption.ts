import { z } from 'zod'
import { RedemptionStatus } from './statuses.ts'
import { rowIdSchema } from './user-admin.ts'

/** Codes one `POST /api/redemption/` may create (one-api's limit). */
export const MAX_REDEMPTION_COUNT = 100
/** Quota per code the console proposes. */
export const DEFAULT_REDEMPTION_QUOTA = 100_000

const nameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(20, 'name must be at most 20 characters')

const quotaSchema = z
  .number({ error: 'quota must be an integer' })
  .int('quota must be an integer')
  .min(0, 'quota must not be negative')
  .max(Number.MAX_SAFE_INTEGER, 'quota is out of range')

/** `POST /api/redemption/`: `count` codes of `quota` each. */
export const createRedemptionInputSchema = z.object({
  name: nameSchema,
  quota: quotaSchema,
  count: z
    .number({ error: 'count must be an integer' })
    .int('count must be an integer')
    .min(1, 'count must be at least 1')
    .max(MAX_REDEMPTION_COUNT, `count must be at most ${MAX_REDEMPTION_COUNT}`)
    .default(1),
})
export type CreateRedemptionInput = z.infer<typeof createRedemptionInputSchema>

/** `PUT /api/redemption/`: rename or re-price a code. */
export const updateRedemptionInputSchema = z.object({
  id: rowIdSchema,
  name: nameSchema,
  quota: quotaSchema,
})
export type UpdateRedemptionInput = z.infer<typeof updateRedemptionInputSchema>

/** `PUT /api/redemption/?status_only=true`: enable or disable an unused code. */
export const redemptionStatusInputSchema = z.object({
  id: rowIdSchema,
  status: z.union([z.literal(RedemptionStatus.unused), z.literal(RedemptionStatus.disabled)], {
    error: `status must be ${RedemptionStatus.unused} (enabled) or ${RedemptionStatus.disabled} (disabled)`,
  }),
})
export type RedemptionStatusInput = z.infer<typeof redemptionStatusInputSchema>

/** A redemption code as the management API returns it. */
export interface RedemptionView {
  id: number
  user_id: number
  key: string
  status: number
  name: string
  quota: number
  created_time: number
  redeemed_time: number
}
