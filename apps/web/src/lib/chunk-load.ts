/** A chunk that has not arrived after two minutes counts as failed. */
const CHUNK_TIMEOUT_MS = 120_000

/** A page's script could not be loaded (a new release replaced it, or the network failed). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError'
}

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ChunkLoadError'
}

/** Runs a dynamic import; a failure or a timeout becomes a ChunkLoadError for the route's error page. */
export function loadChunk<T>(loader: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('Loading the page timed out')), CHUNK_TIMEOUT_MS)
    loader()
      .then(resolve, (error: unknown) =>
        reject(new ChunkLoadError(error instanceof Error ? error.message : String(error))),
      )
      .finally(() => clearTimeout(timer))
  })
}
