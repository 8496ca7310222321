// Vitest's global setup: the tests that start the server as a process of its own run the compiled
// server, as production does (it also starts in half the time tsx takes), so it is compiled first
// when it is missing or older than its sources.
import { ensureCompiled } from '../compile.mjs'

export default async function setup() {
  await ensureCompiled()
}
