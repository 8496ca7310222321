/**
 * Paths of providers with a wire format or an authentication of their own, and what checks them.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { type Refusal, refuseZhipuAuth } from './zhipu.ts'

export type Provider = 'zhipu'

export interface ProviderRoute {
  readonly provider: Provider
  /** An endpoint the OpenAI-format handlers answer. */
  readonly endpoint: 'chat' | 'embeddings' | 'images'
}

const ZHIPU: Record<string, ProviderRoute['endpoint']> = {
  '/api/paas/v4/chat/completions': 'chat',
  '/api/paas/v4/embeddings': 'embeddings',
  '/api/paas/v4/images/generations': 'images',
}

export function matchProviderRoute(method: string, pathname: string): ProviderRoute | undefined {
  if (method !== 'POST') return undefined
  const zhipu = ZHIPU[pathname]
  if (zhipu) return { provider: 'zhipu', endpoint: zhipu }
  return undefined
}

/** The provider's refusal of the request's credentials, or undefined when they are good. */
export function refuseProviderAuth(route: ProviderRoute, headers: IncomingHttpHeaders): Refusal | undefined {
  switch (route.provider) {
    case 'zhipu':
      return refuseZhipuAuth(headers)
  }
}
