import { readFileSync } from 'node:fs'

function readVersion(): string {
  try {
    const url = new URL('../../../package.json', import.meta.url)
    return `v${(JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version}`
  } catch {
    return 'v0.0.0'
  }
}

export const VERSION = readVersion()
