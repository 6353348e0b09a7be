import { connect as connectTcp, type Socket } from 'node:net'

/*
 * Clients that hold a server's connections open without finishing a request (issue #20): a socket
 * that says nothing, one that drips header bytes, one that stops halfway through a TLS record. Each
 * resolves with whether the server closed the connection before `waitMs` (a bound for the test, not
 * a duration it asserts).
 */

function closedWithin(
  socket: Socket,
  waitMs: number,
  onOpen: (socket: Socket) => NodeJS.Timeout | void,
): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | void
    const deadline = setTimeout(() => {
      if (timer) clearInterval(timer)
      socket.destroy()
      resolve(false)
    }, waitMs)
    socket.on('error', () => {})
    socket.resume() // read whatever the server answers: a closed stream reports 'close' only once read to its end
    socket.on('close', () => {
      clearTimeout(deadline)
      if (timer) clearInterval(timer)
      resolve(true)
    })
    socket.on('connect', () => (timer = onOpen(socket)))
  })
}

/** Connects and sends nothing. */
export const silentSocket = (port: number, waitMs: number) =>
  closedWithin(connectTcp(port, '127.0.0.1'), waitMs, () => {})

/** Sends a request line, then one header byte every 100 ms, never ending the headers. */
export const slowHeaders = (port: number, waitMs: number) =>
  closedWithin(connectTcp(port, '127.0.0.1'), waitMs, (socket) => {
    socket.write('GET /v1/ping HTTP/1.1\r\nHost: localhost\r\nX-Slow: ')
    return setInterval(() => socket.write('a'), 100)
  })

/** Starts a TLS record (a handshake header announcing 512 bytes) and sends only part of it. */
export const halfTlsRecord = (port: number, waitMs: number) =>
  closedWithin(connectTcp(port, '127.0.0.1'), waitMs, (socket) => {
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]))
  })

/** Sends a complete request head announcing a body, then drips the body a byte every 100 ms. */
export const slowBody = (port: number, waitMs: number, path: string) =>
  closedWithin(connectTcp(port, '127.0.0.1'), waitMs, (socket) => {
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
    )
    return setInterval(() => socket.write(' '), 100)
  })
