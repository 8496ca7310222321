import { gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/** What the budget needs of an output chunk (a subset of Rollup's OutputChunk). */
export interface BuiltChunk {
  fileName: string
  code: string
  /** Chunks this one imports statically (fetched before it runs). */
  imports: string[]
  isEntry: boolean
  facadeModuleId: string | null
}

/**
 * The JavaScript files a first visit to a route downloads before the page shows: the entry chunk,
 * the route's own chunk (its `lazy` import), and every chunk either imports statically, however
 * deep. Chunks loaded later on demand (menus, other pages) are not counted.
 */
export function firstLoadFiles(chunks: readonly BuiltChunk[], routeModule: string): string[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
  const roots = chunks.filter((chunk) => chunk.isEntry || chunk.facadeModuleId?.endsWith(routeModule))
  if (!roots.some((chunk) => !chunk.isEntry)) throw new Error(`No chunk is built from ${routeModule}`)
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const imported of byName.get(name)?.imports ?? []) visit(imported)
  }
  for (const root of roots) visit(root.fileName)
  return [...seen].filter((name) => byName.has(name)).sort()
}

/** Gzipped size at level 9 (what Vite's build report shows), summed over the files. */
export function gzippedBytes(chunks: readonly BuiltChunk[], files: readonly string[]): number {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
  return files.reduce((sum, file) => sum + gzipSync(byName.get(file)?.code ?? '', { level: 9 }).length, 0)
}

/**
 * Fails the build when a first visit to `routeModule` (the sign-in page) would download more than
 * `limitKb` kB (1,000 bytes) of gzipped JavaScript, and prints the figure on every build, with a
 * warning while it is above `targetKb` (the goal; `limitKb` only stops it growing meanwhile).
 */
export function firstLoadBudget(options: { routeModule: string; limitKb: number; targetKb: number }): Plugin {
  return {
    name: 'first-load-budget',
    apply: 'build',
    generateBundle(_output, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk')
      const files = firstLoadFiles(chunks, options.routeModule)
      const kb = gzippedBytes(chunks, files) / 1000
      const summary = `first load of ${options.routeModule}: ${kb.toFixed(1)} kB of gzipped JavaScript in ${files.length} files (limit ${options.limitKb} kB, target ${options.targetKb} kB)`
      if (kb > options.limitKb) this.error(`Over the limit: ${summary}: ${files.join(', ')}`)
      if (kb > options.targetKb) this.warn(`Above the target: ${summary}`)
      else this.info(summary)
    },
  }
}
