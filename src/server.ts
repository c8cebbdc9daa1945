import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  readonly server: Server;
  /** The address actually bound, e.g. http://127.0.0.1:3000 (port 0 picks a free port). */
  readonly url: string;
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

/** The server could not bind HOST and PORT; the message says why and which setting to change. */
export class ListenError extends Error {
  override readonly name = 'ListenError';
}

const LISTEN_FAILURES: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use by another program; set PORT to a free port (0 picks one)',
  EACCES: 'not allowed to use that port; set PORT to 1024 or above, or run with the privilege to bind it',
  EADDRNOTAVAIL: 'no interface of this machine has that address; set HOST to one of its addresses (127.0.0.1, 0.0.0.0)',
  ENOTFOUND: 'the host name does not resolve; set HOST to an address of this machine (127.0.0.1, 0.0.0.0)',
};

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const reason = LISTEN_FAILURES[error.code ?? ''];
  return reason === undefined ? error : new ListenError(`cannot listen on HOST=${host} PORT=${port}: ${reason}`);
}

export async function listen(app: Express, host: string, port: number): Promise<RunningServer> {
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  let closing = false;
  // A keep-alive connection whose last answer ends while the server closes would hold the close until
  // the keep-alive timeout; it is ended with that answer instead.
  server.on('request', (_req, res: ServerResponse) => {
    res.once('finish', () => {
      if (closing) server.closeIdleConnections();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
