import { z } from 'zod'

/** Username and password rules of one-api (validate tags on model.User). */
export const usernameSchema = z
  .string({ error: 'username is required' })
  .trim()
  .min(1, 'username is required')
  .max(12, 'username must be at most 12 characters')
export const passwordSchema = z
  .string({ error: 'password is required' })
  .min(8, 'password must be at least 8 characters')
  .max(20, 'password must be at most 20 characters')
export const displayNameSchema = z.string().max(20, 'display name must be at most 20 characters')

export const loginInputSchema = z.object({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(64),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(128),
})
export type LoginInput = z.infer<typeof loginInputSchema>

export const registerInputSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  // one-api's console sends null for the fields it has no value for (no invitation: aff_code).
  email: z.string().trim().max(50).nullish(),
  verification_code: z.string().trim().max(64).nullish(),
  aff_code: z.string().trim().max(32).nullish(),
})
export type RegisterInput = z.infer<typeof registerInputSchema>

/** `PUT /api/user/self`: a user may change their username, display name and password. */
export const updateSelfInputSchema = z.object({
  username: usernameSchema.optional(),
  display_name: displayNameSchema.optional(),
  password: z.union([z.literal(''), passwordSchema]).optional(),
})
export type UpdateSelfInput = z.infer<typeof updateSelfInputSchema>

/** What the console keeps in local storage under `user` and what login returns. */
export interface SessionUser {
  id: number
  username: string
  display_name: string
  role: number
  status: number
  group: string
}
