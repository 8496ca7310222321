// Compiles the TypeScript of the workspace packages to JavaScript, file for file, from each
// package's src/ to its dist/ (relative `.ts` imports become `.js`; packages, the workspace's
// included, stay imports). The server then runs on plain Node, without tsx, TypeScript or Vite:
// each package's `exports` lead to dist/ under the `compiled` condition, which `npm start` sets
// (`node --conditions=compiled`); tests and `npm run dev` read the sources. Why esbuild rather than
// tsc: docs/decisions/compiled-build.md.

import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'

export const root = new URL('..', import.meta.url).pathname
/** The packages compiled, dependencies first; the server last (its entry is the build's stamp). */
export const COMPILED_PACKAGES = [
  'packages/contracts',
  'packages/providers',
  'tools/mock-upstream',
  'apps/server',
]
export const SERVER_ENTRY = join(root, 'apps/server/dist/main.js')

/** Product code only: tests, test helpers and fixtures are not compiled. */
const isSource = (path) =>
  path.endsWith('.ts') && !path.endsWith('.test.ts') && !/(^|\/)(testing|__fixtures__)(\/|\.ts$)/.test(path)

function sourceFiles(directory) {
  if (!existsSync(directory)) return []
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return isSource(relative(root, path)) ? [path] : []
  })
}

/** Every import stays an import: relative ones are pointed at the compiled `.js` files. */
const keepImports = {
  name: 'keep-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined
      const relativeImport = args.path.startsWith('./') || args.path.startsWith('../')
      return { path: relativeImport ? args.path.replace(/\.ts$/, '.js') : args.path, external: true }
    })
  },
}

/**
 * Compiles every package in COMPILED_PACKAGES to a fresh dist/. Each is written aside and then
 * put in place, so a server starting meanwhile (a test) finds the old build or the new one whole.
 */
export async function compileWorkspace() {
  const { build } = await import('esbuild')
  for (const name of COMPILED_PACKAGES) {
    const source = join(root, name, 'src')
    const output = join(root, name, 'dist')
    const next = `${output}.next-${process.pid}`
    await build({
      entryPoints: sourceFiles(source),
      outdir: next,
      outbase: source,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      plugins: [keepImports],
      logLevel: 'warning',
    })
    const previous = `${output}.previous-${process.pid}`
    if (existsSync(output)) renameSync(output, previous)
    renameSync(next, output)
    rmSync(previous, { recursive: true, force: true })
  }
}

function newestSource() {
  let newest = 0
  for (const name of COMPILED_PACKAGES) {
    newest = Math.max(newest, statSync(join(root, name, 'package.json')).mtimeMs)
    for (const file of sourceFiles(join(root, name, 'src'))) newest = Math.max(newest, statSync(file).mtimeMs)
  }
  return newest
}

/** Whether esbuild is installed (it is not after `npm ci --omit=dev`). */
function canCompile() {
  // createRequire works in every loader; import.meta.resolve is missing under Vitest's.
  try {
    createRequire(import.meta.url).resolve('esbuild')
    return true
  } catch {
    return false
  }
}

/**
 * Compiles when no build exists or the sources changed since. Where the development tools are not
 * installed (a production install of a tree built before), the existing build is used as it is.
 */
export async function ensureCompiled() {
  const built = existsSync(SERVER_ENTRY)
  if (built && statSync(SERVER_ENTRY).mtimeMs >= newestSource()) return
  if (!canCompile()) {
    if (!built) {
      console.error(
        'The server is not built and esbuild is not installed: run `npm install` then `npm run build`',
      )
      process.exit(1)
    }
    console.warn(
      'The sources are newer than the build, which is used as it is (run `npm run build` to update it)',
    )
    return
  }
  console.log('Compiling the server ...')
  await compileWorkspace()
}

// `node scripts/compile.mjs` compiles at once.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await compileWorkspace()
