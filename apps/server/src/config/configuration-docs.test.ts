import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONFIG_VARIABLES } from './env.ts'

const REPOSITORY_ROOT = new URL('../../../../', import.meta.url)

/** Names in the first column of a Markdown text's tables (`NAME`, or `A`, `B` in one cell). */
function variablesInTables(text: string): string[] {
  const names = new Set<string>()
  for (const line of text.split('\n')) {
    const firstCell = /^\| ([^|]+) \|/.exec(line)?.[1]
    for (const match of firstCell?.matchAll(/`([A-Z][A-Z0-9_]+)`/g) ?? []) names.add(match[1] as string)
  }
  return [...names]
}

function read(path: string): string {
  return readFileSync(new URL(path, REPOSITORY_ROOT), 'utf8')
}

describe('the configuration reference', () => {
  const reference = read('docs/configuration.md')
  const serverPart = reference.slice(0, reference.indexOf('## Variables for tests'))

  it('documents every environment variable the server reads', () => {
    const documented = variablesInTables(reference)
    expect(CONFIG_VARIABLES.filter((name) => !documented.includes(name))).toEqual([])
  })

  it('lists as server variables only variables the server reads', () => {
    expect(variablesInTables(serverPart).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([])
  })

  it("the README's table holds ten of them", () => {
    const inReadme = variablesInTables(read('README.md'))
    expect(inReadme).toHaveLength(10)
    expect(inReadme.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([])
  })
})
