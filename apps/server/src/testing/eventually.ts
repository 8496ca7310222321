/**
 * Polls until `check` holds, for what another node, thread or timer makes true a little later;
 * throws naming the check when it does not within `timeoutMs` (10 s: ioredis backs off up to 2 s
 * between reconnection attempts, a reload is announced or periodic).
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  pollMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`not true within ${timeoutMs / 1000} s: ${check.toString().slice(0, 200)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}
