/**
 * Loads recorded wire bodies from an adaptor's __fixtures__ folder (tests only: this reads files).
 */
import { readFileSync } from 'node:fs'

export function fixtureLoader(fixturesUrl: URL): (name: string) => Buffer {
  return (name) => readFileSync(new URL(name, fixturesUrl))
}

/** Splits bytes into pieces of `size` bytes, to replay a stream as the network might deliver it. */
export function splitEvery(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = []
  // Copies, as a socket gives them: a stream transformer may rewrite a chunk in place.
  for (let offset = 0; offset < bytes.length; offset += size)
    pieces.push(Buffer.from(bytes.subarray(offset, offset + size)))
  return pieces
}
