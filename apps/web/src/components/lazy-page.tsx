import { type ComponentType, lazy, Suspense } from 'react'
import { Loading } from './loading.tsx'

/** A page chunk that has not arrived after two minutes counts as failed. */
const CHUNK_TIMEOUT_MS = 120_000

/** A page's script could not be loaded (a new release replaced it, or the network failed). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError'
}

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ChunkLoadError'
}

function loadChunk<T>(loader: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('Loading the page timed out')), CHUNK_TIMEOUT_MS)
    loader()
      .then(resolve, (error: unknown) =>
        reject(new ChunkLoadError(error instanceof Error ? error.message : String(error))),
      )
      .finally(() => clearTimeout(timer))
  })
}

/**
 * A page whose code is fetched on first visit. While it loads the 'Loading {page} ...' placeholder
 * shows; a failed load is thrown as ChunkLoadError to the route's error page.
 */
export function lazyPage(loader: () => Promise<ComponentType>, page?: string): ComponentType {
  const Page = lazy(() => loadChunk(loader).then((component) => ({ default: component })))
  // biome-ignore lint/correctness/noComponentHookFactories: called once per page at module load (app/pages.ts), never while rendering
  return function LazyPage() {
    return (
      <Suspense fallback={<Loading page={page} />}>
        <Page />
      </Suspense>
    )
  }
}
