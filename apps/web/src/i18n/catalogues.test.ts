import { describe, expect, it } from 'vitest'

type Catalogue = Record<string, unknown>
const files = import.meta.glob<Catalogue>('./catalogues/*/*.json', { eager: true, import: 'default' })

/** The bundles of one language by name ('core', 'channels', …). */
function bundlesOf(language: string): Map<string, Catalogue> {
  const prefix = `./catalogues/${language}/`
  return new Map(
    Object.entries(files)
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, catalogue]) => [path.slice(prefix.length, -'.json'.length), catalogue]),
  )
}

/** Every leaf of a catalogue as 'a.b.c'. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key))
}

function valueAt(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], catalogue)
}

const english = bundlesOf('en')
const chinese = bundlesOf('zh')

describe('translation catalogues', () => {
  it('both languages have the same bundles, and no two bundles share a top-level block', () => {
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort())
    expect(english.has('core')).toBe(true)
    const blocks = [...english.values()].flatMap((bundle) => Object.keys(bundle))
    expect(blocks.filter((block, index) => blocks.indexOf(block) !== index)).toEqual([])
  })

  it.each([...english.keys()])('Chinese %s has every English key and no other', (name) => {
    const englishKeys = keysOf(english.get(name)).sort()
    const chineseKeys = keysOf(chinese.get(name)).sort()
    expect(englishKeys.filter((key) => !chineseKeys.includes(key))).toEqual([])
    expect(chineseKeys.filter((key) => !englishKeys.includes(key))).toEqual([])
  })

  it.each([...english.keys()])(
    '%s: no text is empty and both sides use the same {{placeholders}}',
    (name) => {
      const en = english.get(name)
      const zh = chinese.get(name)
      for (const key of keysOf(en)) {
        const englishText = String(valueAt(en, key))
        const chineseText = String(valueAt(zh, key))
        expect(englishText.trim(), key).not.toBe('')
        expect(chineseText.trim(), key).not.toBe('')
        const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
        expect(placeholders(chineseText), key).toEqual(placeholders(englishText))
      }
    },
  )
})
