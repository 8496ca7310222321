/**
 * DeepL's translate API as it checks and answers: `Authorization: DeepL-Auth-Key <key>` with a
 * known key (else 403), `text` (a list) and `target_lang` required (else 400); each text comes
 * back as `[<target_lang>] <text>`, its source language given as EN.
 * https://developers.deepl.com/api-reference/translate
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { sendJson } from '../errors.ts'
import { DEEPL_KEYS } from './credentials.ts'
import type { Refusal } from './zhipu.ts'

const keys = new Set(DEEPL_KEYS)

export function refuseDeeplAuth(headers: IncomingHttpHeaders): Refusal | undefined {
  const match = /^DeepL-Auth-Key (.+)$/.exec(headers.authorization ?? '')
  if (match && keys.has(match[1]!)) return undefined
  return { status: 403, body: JSON.stringify({ message: 'Forbidden' }) }
}

export function handleDeepl(response: ServerResponse, json: Record<string, unknown>): Promise<void> | void {
  const texts = json.text
  const target = json.target_lang
  if (!Array.isArray(texts) || texts.length === 0 || typeof target !== 'string' || target === '') {
    return sendJson(
      response,
      400,
      JSON.stringify({ message: "Value for 'target_lang' not supported or 'text' missing." }),
    )
  }
  const translations = texts.map((text) => ({
    detected_source_language: 'EN',
    text: `[${target}] ${String(text)}`,
  }))
  sendJson(response, 200, JSON.stringify({ translations }))
}
