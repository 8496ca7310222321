/**
 * The Spark WebSocket URL, signed as Xunfei documents: HMAC-SHA256 with the APISecret over
 * "host: {host}\ndate: {date}\nGET {path} HTTP/1.1", base64; then the `authorization` query
 * parameter is the base64 of `api_key="…", algorithm="hmac-sha256", headers="host date
 * request-line", signature="…"`, beside `date` and `host`. Xunfei refuses a date more than five
 * minutes from its clock, so the date is the request's arrival time.
 * https://www.xfyun.cn/doc/spark/general_url_authentication.html
 */
import { createHmac } from 'node:crypto'

export interface SparkKey {
  readonly appId: string
  readonly apiSecret: string
  readonly apiKey: string
}

/** The channel key `APPID|APISecret|APIKey`, or undefined when it is not one. */
export function parseSparkKey(key: string): SparkKey | undefined {
  const [appId, apiSecret, apiKey, ...rest] = key.split('|').map((part) => part.trim())
  if (!appId || !apiSecret || !apiKey || rest.length > 0) return undefined
  return { appId, apiSecret, apiKey }
}

/** The signature of one handshake: shared with the mock upstream, which recomputes it. */
export function sparkSignature(apiSecret: string, host: string, date: string, path: string): string {
  const origin = `host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`
  return createHmac('sha256', apiSecret).update(origin).digest('base64')
}

export function signedSparkUrl(base: string, path: string, key: SparkKey, unixSeconds: number): string {
  const url = new URL(path, base)
  const date = new Date(unixSeconds * 1000).toUTCString()
  const signature = sparkSignature(key.apiSecret, url.host, date, url.pathname)
  const authorization = Buffer.from(
    `api_key="${key.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`,
  ).toString('base64')
  url.search = new URLSearchParams({ authorization, date, host: url.host }).toString()
  return url.toString()
}
