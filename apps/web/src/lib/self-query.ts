import { queryOptions } from '@tanstack/react-query'
import { apiGet } from './api-client.ts'

/**
 * GET /api/user/self, the signed-in user's own record, under one query key for every screen that
 * shows a part of it (profile, bindings, balance): one request per screen, and a change made in
 * one place (a binding, a redeemed code) shows in all.
 */
export const selfQueryKey = ['user', 'self'] as const

/** The record as `Fields`: the part of it the caller reads. */
export const selfQueryOptions = <Fields>() =>
  queryOptions({ queryKey: selfQueryKey, queryFn: () => apiGet<Fields>('/api/user/self') })
