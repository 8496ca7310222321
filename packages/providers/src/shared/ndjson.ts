/**
 * Incremental newline-delimited JSON reader over raw Buffers (Ollama's stream format: one JSON
 * object per line, `application/x-ndjson`). Chunks may split anywhere, also inside a multi-byte
 * UTF-8 character: lines are cut on the LF byte and each whole line is decoded once. Blank lines
 * are skipped; a last line without its LF is delivered by end().
 * https://github.com/ndjson/ndjson-spec
 */
const LINE_FEED = 0x0a

export class NdjsonParser {
  private partial: Buffer[] = []

  /** `onLine`: each non-blank line, without its line ending. */
  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0
    for (let index = chunk.indexOf(LINE_FEED); index !== -1; index = chunk.indexOf(LINE_FEED, start)) {
      this.partial.push(chunk.subarray(start, index))
      this.flush()
      start = index + 1
    }
    // Copied: the caller may reuse the chunk's memory.
    if (start < chunk.length) this.partial.push(Buffer.from(chunk.subarray(start)))
  }

  end(): void {
    this.flush()
  }

  private flush(): void {
    const line = Buffer.concat(this.partial).toString('utf8').replace(/\r$/, '')
    this.partial = []
    if (line.trim() !== '') this.onLine(line)
  }
}
