const FAILURES_BEFORE_COOLDOWN = 3
const FIRST_COOLDOWN_MS = 5_000
const LONGEST_COOLDOWN_MS = 300_000
/** Failures further apart than this (after the last one, or after the cool-down it caused) start over. */
const FAILURE_WINDOW_MS = 60_000

interface FailureRun {
  failures: number
  lastFailure: number
  /** Until when the channel cools down (0: it does not). */
  until: number
}

/**
 * Which channels are cooling down after failing. A channel that keeps failing with retryable
 * errors (429, 5xx, timeouts: FAILURES_BEFORE_COOLDOWN in a row, no success between) cools down
 * for 5 s, doubling with each further failure up to 5 min; one stray error moves no traffic. A
 * failure within FAILURE_WINDOW_MS of the last one, or of the end of the cool-down it caused,
 * continues the run, so a channel that is still down when its cool-down ends goes straight back
 * to a longer one.
 */
export class ChannelCooldowns {
  private readonly runs = new Map<number, FailureRun>()

  /** True when no channel has failed since its last success: nothing to filter. */
  get empty(): boolean {
    return this.runs.size === 0
  }

  isCooling(channelId: number, now: number): boolean {
    return (this.runs.get(channelId)?.until ?? 0) > now
  }

  failed(channelId: number, now: number): void {
    const run = this.runs.get(channelId)
    const continues = run !== undefined && now <= Math.max(run.lastFailure, run.until) + FAILURE_WINDOW_MS
    const failures = continues ? run.failures + 1 : 1
    const beyond = failures - FAILURES_BEFORE_COOLDOWN
    const until = beyond >= 0 ? now + Math.min(FIRST_COOLDOWN_MS * 2 ** beyond, LONGEST_COOLDOWN_MS) : 0
    this.runs.set(channelId, { failures, lastFailure: now, until })
  }

  succeeded(channelId: number): void {
    if (this.runs.size > 0) this.runs.delete(channelId)
  }

  /** Every channel starts afresh. */
  clear(): void {
    this.runs.clear()
  }
}
