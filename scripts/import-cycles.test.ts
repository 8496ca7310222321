import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { importCycles, importGraph, sourceFiles } from './testing/import-cycles.ts'

const root = new URL('../', import.meta.url).pathname

/** Each workspace package's name and its src/ folder. */
function workspacePackages(): Map<string, string> {
  const packages = new Map<string, string>()
  for (const folder of ['packages', 'apps', 'tools']) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const manifest = JSON.parse(readFileSync(join(root, folder, entry.name, 'package.json'), 'utf8'))
      packages.set(manifest.name, join(root, folder, entry.name, 'src'))
    }
  }
  return packages
}

describe('import cycles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'import-cycles-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('there are none in the server and the packages, type-only imports included', () => {
    const packages = workspacePackages()
    const folders = [
      join(root, 'apps/server/src'),
      ...[...packages.values()].filter((src) => src.includes('/packages/')),
    ]
    const graph = importGraph(folders.flatMap(sourceFiles), packages)
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(root, file)).join(' -> '))
    expect(cycles).toEqual([])
  })

  it('relay/ never imports admin/ (admin/ uses the relay; what both need lives in neutral modules)', () => {
    const server = join(root, 'apps/server/src')
    const graph = importGraph(sourceFiles(join(server, 'relay')), new Map())
    const intoAdmin = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => target.startsWith(join(server, 'admin/')))
        .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
    )
    expect(intoAdmin).toEqual([])
  })

  it('finds a cycle made of a type-only import, an export-from and an import type', () => {
    mkdirSync(join(scratch, 'src/inner'), { recursive: true })
    writeFileSync(join(scratch, 'src/a.ts'), "import type { B } from './inner/b.ts'\nexport type A = B\n")
    writeFileSync(join(scratch, 'src/inner/b.ts'), "export { c } from '../c.ts'\nexport type B = number\n")
    writeFileSync(join(scratch, 'src/c.ts'), "export const c: import('./a.ts').A = 1\n")
    writeFileSync(join(scratch, 'src/d.ts'), "import { c } from './c.ts'\nexport const d = c\n")
    const graph = importGraph(sourceFiles(join(scratch, 'src')), new Map())
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(scratch, file)))
    expect(cycles).toEqual([['src/a.ts', 'src/inner/b.ts', 'src/c.ts', 'src/a.ts']])
  })

  it("follows the workspace's own packages by name", () => {
    mkdirSync(join(scratch, 'pkg/src'), { recursive: true })
    mkdirSync(join(scratch, 'app'), { recursive: true })
    writeFileSync(join(scratch, 'pkg/src/index.ts'), "export * from './thing.ts'\n")
    writeFileSync(
      join(scratch, 'pkg/src/thing.ts'),
      "import type { App } from '../../app/main.ts'\nexport type T = App\n",
    )
    writeFileSync(
      join(scratch, 'app/main.ts'),
      "import type { T } from '@scope/pkg'\nexport type App = T | 1\n",
    )
    const packages = new Map([['@scope/pkg', join(scratch, 'pkg/src')]])
    const graph = importGraph([...sourceFiles(join(scratch, 'pkg')), join(scratch, 'app/main.ts')], packages)
    expect(importCycles(graph)).toHaveLength(1)
  })
})
