/**
 * The import graph of TypeScript sources and its cycles. Every import counts: `import type`,
 * `export ... from` and `import('...')` types included, since a cycle of types still ties the
 * modules' designs together. Relative imports and the workspace's own packages (`@one-api/<name>`,
 * `@one-api/<name>/<path>`, resolved to their `src/`) are followed; other packages are not.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'

/** Every .ts and .tsx file under `directory`, node_modules and dist left out. */
export function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** The module specifiers a file names, in import and export declarations and in import types. */
export function importSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const specifiers: string[] = []
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text)
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal))
        specifiers.push(argument.literal.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return specifiers
}

function existingModule(path: string): string | undefined {
  const candidates = [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}.tsx`, join(path, 'index.ts')]
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate))
}

/**
 * Resolves `specifier` imported by `file`; undefined for a package outside the workspace.
 * `packageSources` maps a workspace package's name to its `src/` folder.
 */
export function resolveImport(
  file: string,
  specifier: string,
  packageSources: ReadonlyMap<string, string>,
): string | undefined {
  if (specifier.startsWith('.')) return existingModule(resolve(dirname(file), specifier))
  const [scope, name, ...rest] = specifier.split('/')
  const sources = packageSources.get(`${scope}/${name}`)
  if (!sources) return undefined
  return existingModule(join(sources, rest.length > 0 ? rest.join('/') : 'index'))
}

/** The import graph of `files`: each file and the workspace files it imports. */
export function importGraph(files: readonly string[], packageSources: ReadonlyMap<string, string>) {
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = importSpecifiers(file)
      .map((specifier) => resolveImport(file, specifier, packageSources))
      .filter((target): target is string => target !== undefined)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/**
 * The cycles of `graph`: one per strongly connected component of more than one file (or a file
 * importing itself), given as a path that starts and ends at the same file.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1 || (graph.get(component[0]!) ?? []).includes(component[0]!))
    .map((component) => cycleThrough(graph, new Set(component), component.sort()[0]!))
}

/** Tarjan's algorithm, iterative so that deep graphs cannot overflow the stack. */
function stronglyConnectedComponents(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const lowLink = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let counter = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }]
    index.set(start, counter)
    lowLink.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work.at(-1)!
      const targets = graph.get(frame.node) ?? []
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (!index.has(target)) {
          index.set(target, counter)
          lowLink.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ node: target, next: 0 })
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work.at(-1)
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!))
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        components.push(component)
      }
    }
  }
  return components
}

/** A shortest path from `start` back to itself inside `component` (breadth first). */
function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, component: Set<string>, start: string) {
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()!
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue
      if (target === start) {
        const between: string[] = []
        for (let step = node; step !== start; step = previous.get(step)!) between.unshift(step)
        return [start, ...between, start]
      }
      if (!previous.has(target)) {
        previous.set(target, node)
        queue.push(target)
      }
    }
  }
  return [start, start]
}
