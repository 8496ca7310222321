/**
 * `text` (an upstream's error message, a balance answer) without the channel's key in it. Messages
 * reach administrators who may not read keys (test results and logs, balance errors), root's
 * notifications and the server's log; some providers quote the key they refused in full ("Incorrect
 * API key provided: sk-..."). A key field may hold several secrets (one per line, `ak|sk` pairs,
 * a JSON credential): each piece of 8 characters or more that is not JSON punctuation is replaced.
 */
export function redactChannelKey(text: string, key: string): string {
  let redacted = text
  for (const piece of key.split(/[\s|,]+/)) {
    if (piece.length >= 8 && !/["{}[\]:]/.test(piece)) redacted = redacted.split(piece).join('[channel key]')
  }
  return redacted
}
