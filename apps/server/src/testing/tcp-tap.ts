import type { AddressInfo } from 'node:net'
import { connect, createServer } from 'node:net'

export interface TcpTap {
  /** http://127.0.0.1:<port> of the tap. */
  url: string
  /** One record per connection made through the tap, with when it closed. */
  connections: Array<{ closedAt?: number }>
  close(): Promise<void>
}

/** A byte-for-byte TCP relay in front of the mock, to see when the gateway closes its upstream connections. */
export async function startTcpTap(targetPort: number): Promise<TcpTap> {
  const connections: Array<{ closedAt?: number }> = []
  const server = createServer((inbound) => {
    const record: { closedAt?: number } = {}
    connections.push(record)
    const outbound = connect(targetPort, '127.0.0.1')
    inbound.pipe(outbound)
    outbound.pipe(inbound)
    inbound.on('error', () => {})
    outbound.on('error', () => {})
    inbound.on('close', () => {
      record.closedAt = Date.now()
      outbound.destroy()
    })
    outbound.on('close', () => inbound.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
