import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = new URL('../', import.meta.url).pathname
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'))

interface Manifest {
  name: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

function files(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory())
      return ['node_modules', 'dist', '__fixtures__'].includes(entry.name) ? [] : files(path)
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [path] : []
  })
}

/**
 * The packages a file imports by name (`node:` modules, type-only imports and the console's `@/`
 * alias for its own src/ aside).
 */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const names = new Set<string>()
  const statements = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g
  for (const [, typeOnly, specifier] of text.matchAll(statements)) {
    if (typeOnly || /^(\.|node:|@\/)/.test(specifier!)) continue
    const parts = specifier!.split('/')
    names.add(specifier!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!)
  }
  return [...names]
}

/** Tests, test helpers and build configuration: what runs only with the development tools. */
const isDevelopmentFile = (path: string) =>
  /\.test\.tsx?$|(^|\/)(testing|__fixtures__)(\/|\.ts$)|\.config\.ts$|(^|\/)e2e\//.test(path)

const workspaces: string[] = readJson('package.json').workspaces.flatMap((pattern: string) => {
  const folder = pattern.replace('/*', '')
  return readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${folder}/${entry.name}`)
})

describe('workspace packages', () => {
  it('declare every package their code imports: product code in dependencies, so a production install has it', () => {
    const rootTools = Object.keys((readJson('package.json') as Manifest).devDependencies ?? {})
    const missing: string[] = []
    for (const workspace of workspaces) {
      const manifest = readJson(`${workspace}/package.json`) as Manifest
      const runtime = new Set(Object.keys(manifest.dependencies ?? {}))
      const development = new Set([...runtime, ...Object.keys(manifest.devDependencies ?? {}), ...rootTools])
      for (const file of files(join(root, workspace))) {
        const path = relative(root, file)
        const declared = isDevelopmentFile(relative(join(root, workspace), file)) ? development : runtime
        for (const name of importedPackages(file)) {
          if (name !== manifest.name && !declared.has(name)) missing.push(`${path} imports ${name}`)
        }
      }
    }
    expect(missing).toEqual([])
  })
})
