import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long, and how much, a connection is read and thrown away after an answer that closes it early. */
export interface LingeringBounds {
  readonly milliseconds: number;
  readonly bytes: number;
}

/** How often the bytes read while lingering are counted: at a gigabit, 12 MB arrive in that time. */
const BYTE_CHECK_MS = 100;

/** Fixed: 10 s and 16 MiB let an ordinary client finish sending the rest of a body refused at a bound. */
export const LINGERING_BOUNDS: LingeringBounds = { milliseconds: 10_000, bytes: 16 * 1024 * 1024 };

/**
 * Half-closes the connection (FIN after the answer) and goes on reading and discarding what the client
 * still sends, until it closes its side, or the bounds are reached; then closes the connection. Closing
 * it while the client still sends would reset it (RST), and a client that writes its whole body before
 * it reads (Python's urllib, for one) would lose the answer it was sent: a fault, a 413.
 */
export function lingerBeforeClosing(socket: Socket, bounds: LingeringBounds): void {
  const readBefore = socket.bytesRead;
  const close = () => socket.destroy();
  const timer = setTimeout(close, bounds.milliseconds);
  // Node's parser reads the socket itself (a 'data' listener would take the bytes from it), and throws
  // the rest of the body away: how much came is watched from the byte count instead.
  const watch = setInterval(() => {
    if (socket.bytesRead - readBefore > bounds.bytes) close();
  }, BYTE_CHECK_MS);
  timer.unref();
  watch.unref();
  socket.once('close', () => {
    clearTimeout(timer);
    clearInterval(watch);
  });
  socket.once('end', close);
  socket.end();
}

/**
 * nginx's lingering_close, for Node's server (`requestOn`: the request a connection is answering, as
 * listen.ts tracks it): when an answer ends a connection (`Connection: close`,
 * asked by the client or sent by the app) while the request's body is still arriving, the connection
 * lingers (above) instead of closing at once. Node ends such a connection with `socket.destroySoon()`,
 * so that is where each connection's own close is changed; a connection whose request is whole closes
 * as before.
 */
export function lingerAfterEarlyAnswers(
  server: Server,
  requestOn: (socket: Socket) => IncomingMessage | undefined,
  bounds: LingeringBounds,
): void {
  server.on('connection', (socket: Socket) => {
    const closeSoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const req = requestOn(socket);
      if (req === undefined || req.complete) closeSoon();
      else lingerBeforeClosing(socket, bounds);
    };
  });
}
