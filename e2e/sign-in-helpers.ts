import { type APIRequestContext, request as playwrightRequest } from '@playwright/test'
import { ROOT_SESSION } from './support.ts'

interface Mail {
  to: string[]
  text: string
}

/** The mails the test SMTP server received for `address`, read through the global setup's mailbox. */
async function mailsTo(address: string): Promise<Mail[]> {
  const url = process.env.E2E_MAILBOX_URL
  if (!url) throw new Error('E2E_MAILBOX_URL is not set: the global setup did not run')
  return (await (await fetch(`${url}/?to=${encodeURIComponent(address)}`)).json()) as Mail[]
}

/** Waits for mail number `count` (1-based) to `address` and returns it. */
export async function waitForMail(address: string, count: number, timeoutMs = 15_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const mails = await mailsTo(address)
    if (mails.length >= count) return mails[count - 1]
    if (Date.now() > deadline) throw new Error(`no mail number ${count} to ${address} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

export function codeIn(mail: Mail): string {
  const match = /verification code is: <strong>([0-9a-zA-Z]{6})<\/strong>/.exec(mail.text)
  if (!match) throw new Error(`no code in the mail:\n${mail.text}`)
  return match[1]
}

/** The path and query of the reset link in the mail (the host is the gateway's server address). */
export function resetLinkIn(mail: Mail): string {
  const match = /href="([^"]+)"/.exec(mail.text)
  if (!match) throw new Error(`no link in the mail:\n${mail.text}`)
  const url = new URL(match[1].replaceAll('&#38;', '&'))
  return `${url.pathname}${url.search}`
}

/** A short unique suffix: every spec shares one gateway and database. */
export const uniqueSuffix = () => Date.now().toString(36).slice(-6)

/** Root's API session (the saved one: root is never signed out), to switch options. */
export async function rootApi(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, storageState: ROOT_SESSION })
}

export async function setOptions(api: APIRequestContext, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const body = await (await api.put('/api/option/', { data: { key, value } })).json()
    if (!body.success) throw new Error(`option ${key}: ${body.message}`)
  }
}
