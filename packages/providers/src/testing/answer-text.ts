import type { Adaptor, RelayRequest } from '../adaptor.ts'

/**
 * The message text `adaptor` answers for the 200 answer `body` (with `extra` members added to its
 * top-level object); throws when the adaptor reads the answer as an error.
 */
export function answerText(
  adaptor: Adaptor,
  body: Buffer,
  request: RelayRequest,
  extra: object = {},
): string {
  const json = { ...JSON.parse(body.toString()), ...extra }
  const parsed = adaptor.parseResponse(
    { status: 200, headers: {}, body: Buffer.from(JSON.stringify(json)) },
    request,
  )
  if (parsed.kind !== 'response') throw new Error(`the answer was read as an error: ${parsed.message}`)
  return JSON.parse(parsed.body.toString()).choices[0].message.content
}
