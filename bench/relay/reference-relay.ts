/**
 * The reference relay of the benchmark: node:http in front of an undici Pool, forwarding every
 * request to the upstream and its answer back, byte for byte. No auth, no billing, no logs, no
 * parsing: what is left is the unavoidable cost of a Node relay, so the gateway's own cost is the
 * difference.
 *
 *   node --import tsx bench/relay/reference-relay.ts --port 4100 --upstream http://127.0.0.1:4000
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { parseArgs } from 'node:util'
import { Pool } from 'undici'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4100' },
    host: { type: 'string', default: '127.0.0.1' },
    upstream: { type: 'string' },
  },
})
if (!values.upstream) throw new Error('--upstream <origin> is required')

const pool = new Pool(values.upstream, {
  connections: 1024,
  keepAliveTimeout: 30_000,
  // Streams may be slow; the benchmark never wants the relay to cut them.
  headersTimeout: 0,
  bodyTimeout: 0,
})

// Connection-level headers belong to each hop, not to the message (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'upgrade',
  'proxy-connection',
  'te',
])

function forwardable(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) {
  const kept: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value
  }
  return kept
}

const server = createServer((request, response) => {
  const method = request.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  pool
    .request({
      path: request.url ?? '/',
      method: method as 'GET',
      headers: forwardable(request.headers),
      body: hasBody ? request : undefined,
    })
    .then(
      (upstream) => {
        response.writeHead(upstream.statusCode, forwardable(upstream.headers))
        // pipe() with explicit error handling is cheaper than stream.pipeline() on Node 20.
        upstream.body.on('error', () => response.destroy())
        response.on('close', () => {
          if (!upstream.body.readableEnded) upstream.body.destroy()
        })
        upstream.body.pipe(response)
      },
      () => {
        if (response.headersSent) return response.destroy()
        response.writeHead(502, { 'content-type': 'application/json' })
        response.end('{"error":{"message":"upstream unreachable","type":"bad_gateway"}}')
      },
    )
})
server.keepAliveTimeout = 30_000

server.listen(Number(values.port), values.host, () => {
  console.log(`reference relay listening on http://${values.host}:${values.port} -> ${values.upstream}`)
})

const stop = () => {
  server.close()
  server.closeAllConnections()
  void pool.close().finally(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
