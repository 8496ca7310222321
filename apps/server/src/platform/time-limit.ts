/** What `withinTime` found: `work`'s value, or that the time ran out first. */
export type TimedOutcome<T> = { finished: true; value: T } | { finished: false }

/**
 * Waits for `work` at most `ms`: its value, or `{ finished: false }` once the time is up (the work
 * goes on, and a failure of it after that is ignored). A failure within the time is thrown. The
 * timer is cleared as soon as either comes, so nothing keeps the process alive.
 */
export async function withinTime<T>(work: Promise<T>, ms: number): Promise<TimedOutcome<T>> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<TimedOutcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ finished: false }), ms)
  })
  work.catch(() => {})
  try {
    return await Promise.race([work.then((value) => ({ finished: true, value }) as const), timedOut])
  } finally {
    clearTimeout(timer)
  }
}
