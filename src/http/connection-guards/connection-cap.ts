import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { errors } from '../../errors/catalogue';
import { endWithRefusal } from '../client-error';
import { lingerBeforeClosing, type LingeringBounds } from './lingering-close';

const REFUSED = Symbol('ivr-reporting.refusedConnection');

/** Whether the connection was refused for its address's cap: its requests get no other answer. */
export function wasRefusedConnection(socket: Socket): boolean {
  return (socket as { [REFUSED]?: boolean })[REFUSED] === true;
}

/**
 * At most `most` connections open at once from one client address: past it, a new connection is
 * answered at once with a 429 saying so (before its request is read, as nginx's limit_conn does), and
 * closed after lingering, so that one address cannot hold every descriptor of the process. 0 turns the
 * cap off. The address is the connection's: behind a proxy, every connection is the proxy's.
 */
export function capConnectionsPerAddress(server: Server, most: number, logger: Logger | undefined, lingering: LingeringBounds): void {
  if (most === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > most) {
      (socket as { [REFUSED]?: boolean })[REFUSED] = true;
      const refused = errors.tooManyConnections(most);
      const requestId = endWithRefusal(socket, refused, () => lingerBeforeClosing(socket, lingering));
      logger?.warn({ requestId, code: refused.code, remoteAddress: address, connections: most }, 'connection refused: too many from its address');
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
