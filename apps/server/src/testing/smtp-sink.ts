import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  /** Headers and body with quoted-printable soft breaks and escapes decoded. */
  text: string
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives, with
 * password authentication. Point the SMTP* options at `port`, `account` and `password`.
 */
export class SmtpSink {
  readonly mails: ReceivedMail[] = []
  readonly account = 'mailer@example.com'
  readonly password = 'smtp-password'
  private readonly waiters: Array<() => void> = []

  private constructor(private readonly server: SMTPServer) {}

  static async start(): Promise<SmtpSink> {
    let sink: SmtpSink | undefined
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === sink?.account && auth.password === sink?.password) {
          callback(null, { user: auth.username })
        } else {
          callback(new Error('Invalid username or password'))
        }
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          sink?.receive({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            text: raw
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/g, (_match, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
          })
          callback()
        })
      },
    })
    sink = new SmtpSink(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return sink
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port
  }

  private receive(mail: ReceivedMail): void {
    this.mails.push(mail)
    for (const wake of this.waiters.splice(0)) wake()
  }

  /** The newest mail to `address`, waiting up to `timeoutMs` for one to arrive after `since` mails. */
  async mailTo(address: string, since = 0, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.mails.slice(since).filter((mail) => mail.to.includes(address))
      if (found.length > 0) return found[found.length - 1]
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve)
        setTimeout(resolve, 500)
      })
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
