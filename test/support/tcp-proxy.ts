import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** host:port of the proxy, to put in a connection URL instead of the target's. */
  readonly address: string;
  /** Drops every connection and refuses new ones, as a dependency that went away. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port; does nothing when it already does. */
  restore(): Promise<void>;
  /** Keeps every connection open but forwards nothing either way, new ones included: a dependency that hangs. */
  freeze(): void;
  /** Forwards again what was held and what comes next. */
  thaw(): void;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
}

function forward({ client, upstream }: Pair): void {
  client.pipe(upstream);
  upstream.pipe(client);
}

function hold({ client, upstream }: Pair): void {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}

/** A loopback TCP relay to `target`, so a test can take a dependency away, or freeze it, and bring it back. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let server: Server | undefined;
  let port = 0;
  let frozen = false;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server?.listening === true) {
        resolve();
        return;
      }
      const next = createServer((client) => {
        const pair = { client, upstream: createConnection(targetPort, targetHost) };
        pairs.add(pair);
        for (const socket of [pair.client, pair.upstream]) {
          socket.on('close', () => {
            pairs.delete(pair);
            pair.client.destroy();
            pair.upstream.destroy();
          });
          socket.on('error', () => socket.destroy());
        }
        if (frozen) hold(pair);
        else forward(pair);
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
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      if (server?.listening === true) server.close(() => resolve());
      else resolve();
    });

  await listen();
  return {
    address: `127.0.0.1:${port}`,
    cut,
    restore: listen,
    freeze: () => {
      frozen = true;
      for (const pair of pairs) hold(pair);
    },
    thaw: () => {
      frozen = false;
      for (const pair of pairs) forward(pair);
    },
    close: cut,
  };
}

/** A proxy to the host and port of a connection URL, and that URL with the proxy's address in their place. */
export async function proxyForUrl(target: string): Promise<{ readonly proxy: TcpProxy; readonly url: string }> {
  const url = new URL(target);
  const proxy = await startTcpProxy(url.hostname, Number(url.port));
  url.host = proxy.address;
  return { proxy, url: url.toString() };
}
