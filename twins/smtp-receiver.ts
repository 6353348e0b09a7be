import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/**
 * An SMTP receiver on a free loopback port that keeps every message it accepts. While `refusing` is
 * set it answers every recipient « 550 Mailbox unavailable », as a mail server that refuses delivery.
 */
export async function startSmtpReceiver() {
  const received: { from: string; to: string[]; raw: string }[] = []
  const state = { refusing: false }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      if (!state.refusing) return callback()
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Whether the receiver refuses deliveries from now on. */
    refuse: (refusing: boolean) => {
      state.refusing = refusing
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>
