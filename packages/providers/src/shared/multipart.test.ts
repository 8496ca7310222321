import { describe, expect, it } from 'vitest'
import { multipartBoundary, replaceMultipartField } from './multipart.ts'

describe('multipart', () => {
  it('reads quoted and bare boundaries', () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b')
    expect(multipartBoundary('multipart/form-data; boundary=xyz; charset=utf-8')).toBe('xyz')
    expect(multipartBoundary('application/json')).toBeUndefined()
  })

  it('returns undefined when the field is absent so the original bytes are sent', () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n--b--\r\n')
    expect(replaceMultipartField(body, 'multipart/form-data; boundary=b', 'model', 'x')).toBeUndefined()
    const replaced = replaceMultipartField(body, 'multipart/form-data; boundary=b', 'language', 'de')
    expect(replaced?.toString()).toBe(
      '--b\r\nContent-Disposition: form-data; name="language"\r\n\r\nde\r\n--b--\r\n',
    )
  })
})
