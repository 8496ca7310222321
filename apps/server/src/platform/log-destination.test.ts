import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { eventually } from '../testing/eventually.ts'
import { LogDestination } from './log-destination.ts'

const directory = () => mkdtempSync(join(tmpdir(), 'one-api-log-destination-'))
const line = (index: number, padding = 0) =>
  `${JSON.stringify({ msg: `line ${index}`, pad: 'x'.repeat(padding) })}\n`

/** A FIFO whose reader is open but never reads until told to: a log collector that stopped. */
function stalledPipe(): { writeFd: number; readFd: number } {
  const path = join(directory(), 'fifo')
  execFileSync('mkfifo', [path])
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  const writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK)
  return { writeFd, readFd }
}

describe('the log destination', () => {
  const openFds: number[] = []
  afterEach(() => {
    for (const fd of openFds.splice(0)) {
      try {
        closeSync(fd)
      } catch {
        // already closed by the test
      }
    }
  })

  it('writes every line to a healthy destination and drops none', async () => {
    const path = join(directory(), 'out.log')
    const fd = openSync(path, 'w')
    openFds.push(fd)
    let dropped = 0
    const destination = new LogDestination({ fd, onDropped: (lines) => (dropped += lines) })
    for (let index = 0; index < 1000; index++) destination.write(line(index))
    await destination.drain(5000)
    const written = readFileSync(path, 'utf8').trimEnd().split('\n')
    expect(written).toHaveLength(1000)
    expect(JSON.parse(written[999]!).msg).toBe('line 999')
    expect(dropped).toBe(0)
  })

  it('drops and counts lines it cannot write, never throws, and tries again later', async () => {
    // Writing to a descriptor opened for reading fails (EBADF) as a broken destination would.
    const path = join(directory(), 'read-only.log')
    const fd = openSync(path, 'w+')
    openFds.push(fd)
    const readOnly = openSync(path, 'r')
    openFds.push(readOnly)
    let dropped = 0
    const destination = new LogDestination({
      fd: readOnly,
      retryAfterMs: 200,
      onDropped: (lines) => (dropped += lines),
    })
    for (let index = 0; index < 50; index++) expect(() => destination.write(line(index))).not.toThrow()
    await eventually(() => dropped === 50, 5000)
    await destination.drain(5000)
    // Within the pause after a failure, a line is dropped at once without a write.
    destination.write(line(50))
    expect(dropped).toBe(51)
    await new Promise((resolve) => setTimeout(resolve, 250))
    destination.write(line(51))
    await eventually(() => dropped === 52, 5000)
    expect(readFileSync(path, 'utf8')).toBe('')
  })

  it('keeps at most its buffer for a reader that stopped reading, dropping and counting the rest', async () => {
    const { writeFd, readFd } = stalledPipe()
    openFds.push(writeFd, readFd)
    let dropped = 0
    const destination = new LogDestination({
      fd: writeFd,
      bufferLimitBytes: 64 * 1024,
      onDropped: (lines) => (dropped += lines),
    })
    // 1 MB of lines of 1 KB: the pipe holds 64 KB and the buffer 64 KB; the rest is dropped.
    const started = performance.now()
    for (let index = 0; index < 1024; index++) destination.write(line(index, 1000))
    expect(performance.now() - started).toBeLessThan(1000)
    expect(dropped).toBeGreaterThan(800)
    expect(dropped).toBeLessThan(1024)
    // Waiting for it is bounded.
    const flushStarted = performance.now()
    await destination.drain(300)
    expect(performance.now() - flushStarted).toBeLessThan(2000)
    // Once the reader reads again, what was kept arrives, in order.
    const received: Buffer[] = []
    await eventually(() => {
      const chunk = Buffer.alloc(65536)
      try {
        const size = readSync(readFd, chunk)
        received.push(chunk.subarray(0, size))
      } catch {
        // EAGAIN: nothing to read right now
      }
      return Buffer.concat(received).toString().split('\n').length - 1 === 1024 - dropped
    }, 5000)
    const lines = Buffer.concat(received).toString().trimEnd().split('\n')
    expect(JSON.parse(lines[0]!).msg).toBe('line 0')
  })

  it('drops and counts what waits for a reader that died (EPIPE), and flush returns at once', async () => {
    const { writeFd, readFd } = stalledPipe()
    openFds.push(writeFd)
    let dropped = 0
    const destination = new LogDestination({ fd: writeFd, onDropped: (lines) => (dropped += lines) })
    for (let index = 0; index < 200; index++) destination.write(line(index, 1000))
    expect(dropped).toBe(0)
    closeSync(readFd)
    const flushStarted = performance.now()
    await destination.drain(10_000)
    expect(performance.now() - flushStarted).toBeLessThan(2000)
    // The pipe took some lines before its reader died; every other line is counted.
    expect(dropped).toBeGreaterThan(100)
    expect(dropped).toBeLessThanOrEqual(200)
    const before = dropped
    destination.write(line(200))
    expect(dropped).toBe(before + 1)
  })
})
