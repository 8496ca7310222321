/**
 * Paths of providers with a wire format or an authentication of their own, and what checks and
 * answers them.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { FaultPlan } from '../faults.ts'
import { handleLibraryAsk, refuseLibraryAuth } from './aiproxy-library.ts'
import { handleBaiduToken, handleBaiduWorkshop } from './baidu.ts'
import { CLOUDFLARE_PATH, refuseCloudflareAuth } from './cloudflare.ts'
import { handleCoze, refuseCozeAuth } from './coze.ts'
import { handleDeepl, refuseDeeplAuth } from './deepl.ts'
import { handleHunyuan, refuseTencentAuth } from './tencent.ts'
import { type Refusal, refuseZhipuAuth } from './zhipu.ts'

export type Provider = 'zhipu' | 'tencent' | 'coze' | 'cloudflare' | 'baidu' | 'deepl' | 'aiproxy-library'

/** A handler of a provider's own format (the OpenAI-format handlers serve the others). */
export type NativeHandler = (
  response: ServerResponse,
  json: Record<string, unknown>,
  faults: FaultPlan,
  query: URLSearchParams,
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

const BAIDU_WORKSHOP = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/[^/]+$/

export function matchProviderRoute(
  method: string,
  pathname: string,
  headers: IncomingHttpHeaders,
): ProviderRoute | undefined {
  if (method !== 'POST') return undefined
  const zhipu = ZHIPU[pathname]
  if (zhipu) return { provider: 'zhipu', endpoint: zhipu }
  const cloudflare = CLOUDFLARE_PATH.exec(pathname)
  if (cloudflare)
    return { provider: 'cloudflare', endpoint: cloudflare[2] === 'embeddings' ? 'embeddings' : 'chat' }
  if (pathname === '/oauth/2.0/token') {
    return {
      provider: 'baidu',
      endpoint: 'chat',
      native: (response, _json, _faults, query) => handleBaiduToken(response, query),
    }
  }
  const workshop = BAIDU_WORKSHOP.exec(pathname)
  if (workshop) {
    const kind = workshop[1] === 'embeddings' ? 'embeddings' : 'chat'
    return {
      provider: 'baidu',
      endpoint: kind,
      native: (response, json, faults, query) => handleBaiduWorkshop(response, query, kind, json, faults),
    }
  }
  if (pathname === '/api/library/ask')
    return { provider: 'aiproxy-library', endpoint: 'chat', native: handleLibraryAsk }
  if (pathname === '/v2/translate') return { provider: 'deepl', endpoint: 'chat', native: handleDeepl }
  if (pathname === '/v3/chat') return { provider: 'coze', endpoint: 'chat', native: handleCoze }
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
  pathname: string,
): Refusal | undefined {
  switch (route.provider) {
    case 'zhipu':
      return refuseZhipuAuth(headers)
    case 'tencent':
      return refuseTencentAuth(headers, body)
    case 'coze':
      return refuseCozeAuth(headers)
    case 'cloudflare':
      return refuseCloudflareAuth(headers, pathname)
    case 'deepl':
      return refuseDeeplAuth(headers)
    case 'aiproxy-library':
      return refuseLibraryAuth(headers, body)
    case 'baidu':
      // The token endpoint checks the key, the workshop its token (baidu.ts).
      return undefined
  }
}
