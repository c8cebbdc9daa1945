import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** host:port of the proxy, to put in a connection URL instead of the target's. */
  readonly address: string;
  /** Drops every connection and refuses new ones, as a dependency that went away. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port; does nothing when it already does. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A loopback TCP relay to `target`, so a test can take a dependency away and bring it back. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server?.listening === true) {
        resolve();
        return;
      }
      const next = createServer((client) => {
        const upstream = createConnection(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as { port: number }).port;
        server = next;
        resolve();
      });
    });

  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (server?.listening === true) server.close(() => resolve());
      else resolve();
    });

  await listen();
  return {
    address: `127.0.0.1:${port}`,
    cut,
    restore: listen,
    close: cut,
  };
}
