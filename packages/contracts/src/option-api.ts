import { z } from 'zod'

export const updateOptionInputSchema = z.object({
  key: z.string({ error: 'key is required' }).min(1, 'key is required').max(64),
  value: z.union([z.string().max(1_000_000), z.number(), z.boolean()], {
    error: 'value must be a string, number or boolean',
  }),
})
export type UpdateOptionInput = z.infer<typeof updateOptionInputSchema>
