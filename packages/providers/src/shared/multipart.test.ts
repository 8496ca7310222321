import { describe, expect, it } from 'vitest'
import {
  multipartBoundary,
  readMultipartField,
  replaceMultipartField,
  setMultipartField,
} from './multipart.ts'

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

  it('reads and replaces a field by its exact name, whatever the case of the part headers', () => {
    const type = 'multipart/form-data; boundary=b'
    const body = Buffer.from(
      '--b\r\ncontent-disposition: form-data; name="Model"\r\n\r\nwhisper-2\r\n' +
        '--b\r\nCONTENT-DISPOSITION: form-data; name="model"\r\n\r\n whisper-1 \r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\r\n--b--\r\n',
    )
    // "Model" is not the field the upstream reads: billing it would charge for a model nobody served.
    expect(readMultipartField(body, type, 'model')).toBe('whisper-1')
    expect(readMultipartField(body, type, 'file')).toBeUndefined() // a file is not a text field
    expect(readMultipartField(body, 'application/json', 'model')).toBeUndefined()
    const replaced = replaceMultipartField(body, type, 'model', 'mapped')
    expect(replaced?.toString()).toContain('name="Model"\r\n\r\nwhisper-2\r\n')
    expect(readMultipartField(replaced!, type, 'model')).toBe('mapped')
    expect(replaced?.toString().endsWith('filename="a.wav"\r\n\r\nRIFF\r\n--b--\r\n')).toBe(true)
  })

  it('adds a field the body lacks as a part of its own, before the others', () => {
    const type = 'multipart/form-data; boundary=b'
    const body = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\r\n--b--\r\n',
    )
    const set = setMultipartField(body, type, 'model', 'whisper-1')
    expect(readMultipartField(set!, type, 'model')).toBe('whisper-1')
    expect(set?.toString().endsWith(body.toString())).toBe(true)
    // One it has is replaced, not added twice.
    expect(
      setMultipartField(set!, type, 'model', 'mapped')
        ?.toString()
        .match(/name="model"/g),
    ).toHaveLength(1)
    expect(setMultipartField(body, 'application/json', 'model', 'x')).toBeUndefined()
  })
})
