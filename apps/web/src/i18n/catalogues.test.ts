import { describe, expect, it } from 'vitest'
import en from './en.json'
import zh from './zh.json'

/** Every leaf of a catalogue as 'a.b.c'. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key))
}

function valueAt(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], catalogue)
}

describe('translation catalogues', () => {
  it('Chinese has every English key and no other', () => {
    const english = keysOf(en).sort()
    const chinese = keysOf(zh).sort()
    expect(english.filter((key) => !chinese.includes(key))).toEqual([])
    expect(chinese.filter((key) => !english.includes(key))).toEqual([])
  })

  it('no text is empty and both sides use the same {{placeholders}}', () => {
    for (const key of keysOf(en)) {
      const english = String(valueAt(en, key))
      const chinese = String(valueAt(zh, key))
      expect(english.trim(), key).not.toBe('')
      expect(chinese.trim(), key).not.toBe('')
      const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
      expect(placeholders(chinese), key).toEqual(placeholders(english))
    }
  })
})
