import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ImageFetcher, isInternalAddress } from './image-fetcher.ts'

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
let server: Server
let base: string

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/cat.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
    if (request.url === '/big.png')
      return response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(4096))
    if (request.url === '/page.html')
      return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>')
    if (request.url === '/moved') return response.writeHead(302, { location: '/cat.png' }).end()
    // /slow never answers.
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const fetcher = (allowPrivate: boolean) =>
  new ImageFetcher({ maxBytes: 1024, timeoutSeconds: 1, allowPrivate })

describe('image fetching for inline-only upstreams', () => {
  it('knows internal addresses, IPv4-mapped IPv6 included', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isInternalAddress(address), address).toBe(true)
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isInternalAddress(address), address).toBe(false)
    }
  })

  it('refuses an internal address unless allowed, by address and by a name that resolves to one', async () => {
    const refused = await fetcher(false).fetchAll([`${base}/cat.png`])
    expect(refused).toMatchObject({ kind: 'error', status: 400, code: 'invalid_image_url' })
    const byName = await fetcher(false).fetchAll([`${base.replace('127.0.0.1', 'localhost')}/cat.png`])
    expect(byName).toMatchObject({ kind: 'error', status: 400 })
    expect((byName as { message: string }).message).toContain('internal address')
    const allowed = await fetcher(true).fetchAll([`${base}/cat.png`])
    expect(allowed).toEqual(
      new Map([[`${base}/cat.png`, { mediaType: 'image/png', base64: PNG.toString('base64') }]]),
    )
  })

  it('refuses what is too large, not an image, a redirect, slow, or not http', async () => {
    const reasons = async (path: string) =>
      ((await fetcher(true).fetchAll([path])) as { message: string }).message
    expect(await reasons(`${base}/big.png`)).toContain('larger than 1024 bytes')
    expect(await reasons(`${base}/page.html`)).toContain('not an image')
    expect(await reasons(`${base}/moved`)).toContain('answered 302')
    expect(await reasons(`${base}/slow`)).toContain('longer than 1 s')
    expect(await reasons('file:///etc/passwd')).toContain('only http and https')
  })
})
