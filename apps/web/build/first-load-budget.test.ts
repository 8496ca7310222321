import { describe, expect, it } from 'vitest'
import { type BuiltChunk, firstLoadFiles, gzippedBytes } from './first-load-budget.ts'

const chunk = (fileName: string, imports: string[], extra: Partial<BuiltChunk> = {}): BuiltChunk => ({
  fileName,
  code: `export const name = ${JSON.stringify(fileName.repeat(50))}`,
  imports,
  isEntry: false,
  facadeModuleId: null,
  ...extra,
})

const chunks = [
  chunk('index.js', ['react.js', 'mantine.js'], { isEntry: true }),
  chunk('react.js', []),
  chunk('mantine.js', ['react.js']),
  chunk('login.js', ['form.js'], { facadeModuleId: '/app/src/features/auth/pages/login-page.tsx' }),
  chunk('form.js', ['mantine.js']),
  chunk('charts.js', ['react.js'], { facadeModuleId: '/app/src/features/home/charts.tsx' }),
]

describe('first-load budget', () => {
  it('counts the entry, the route chunk and their static imports once, not other lazy chunks', () => {
    expect(firstLoadFiles(chunks, 'src/features/auth/pages/login-page.tsx')).toEqual([
      'form.js',
      'index.js',
      'login.js',
      'mantine.js',
      'react.js',
    ])
  })

  it('refuses a route that no chunk is built from (a moved page must not pass unmeasured)', () => {
    expect(() => firstLoadFiles(chunks, 'src/features/auth/pages/sign-in.tsx')).toThrow(/No chunk/)
  })

  it('sums the gzipped sizes of the files', () => {
    const one = gzippedBytes(chunks, ['react.js'])
    expect(one).toBeGreaterThan(0)
    expect(gzippedBytes(chunks, ['react.js', 'login.js'])).toBe(one + gzippedBytes(chunks, ['login.js']))
  })
})
