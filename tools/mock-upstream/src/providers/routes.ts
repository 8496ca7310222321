/**
 * Paths of providers with a wire format or an authentication of their own, and what checks and
 * answers them.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { FaultPlan } from '../faults.ts'
import { handleHunyuan, refuseTencentAuth } from './tencent.ts'
import { type Refusal, refuseZhipuAuth } from './zhipu.ts'

export type Provider = 'zhipu' | 'tencent'

/** A handler of a provider's own format (the OpenAI-format handlers serve the others). */
export type NativeHandler = (
  response: ServerResponse,
  json: Record<string, unknown>,
  faults: FaultPlan,
) => Promise<void> | void

export interface ProviderRoute {
  readonly provider: Provider
  /** The OpenAI-format endpoint that answers, unless `native` does. */
  readonly endpoint: 'chat' | 'embeddings' | 'images'
  readonly native?: NativeHandler
}

const ZHIPU: Record<string, ProviderRoute['endpoint']> = {
  '/api/paas/v4/chat/completions': 'chat',
  '/api/paas/v4/embeddings': 'embeddings',
  '/api/paas/v4/images/generations': 'images',
}

export function matchProviderRoute(
  method: string,
  pathname: string,
  headers: IncomingHttpHeaders,
): ProviderRoute | undefined {
  if (method !== 'POST') return undefined
  const zhipu = ZHIPU[pathname]
  if (zhipu) return { provider: 'zhipu', endpoint: zhipu }
  // Tencent Cloud API 3.0: every action is a POST to / named by X-TC-Action.
  if (pathname === '/' && headers['x-tc-action'] !== undefined) {
    return { provider: 'tencent', endpoint: 'chat', native: handleHunyuan }
  }
  return undefined
}

/** The provider's refusal of the request's credentials, or undefined when they are good. */
export function refuseProviderAuth(
  route: ProviderRoute,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Refusal | undefined {
  switch (route.provider) {
    case 'zhipu':
      return refuseZhipuAuth(headers)
    case 'tencent':
      return refuseTencentAuth(headers, body)
  }
}
