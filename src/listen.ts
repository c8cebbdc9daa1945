import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { answerClientError, answerConnect, answerUnmetExpectation, headersTimeout, MOST_REQUEST_HEADERS, refuseBadHeads } from './http/client-error';
import { enforceMinimumBodyRate, type MinimumBodyRate } from './http/connection-guards/body-rate';
import { capConnectionsPerAddress, wasRefusedConnection } from './http/connection-guards/connection-cap';
import { LINGERING_BOUNDS, lingerAfterEarlyAnswers } from './http/connection-guards/lingering-close';
import type { ServerSettings } from './http/settings';
import { STALLED, type StallReason } from './http/connection-guards/stalled-body';

/** How the server treats connections: the configuration's settings, decided there (listenOptions). */
export interface ListenOptions {
  /** REQUEST_IDLE_TIMEOUT_SECONDS. */
  readonly idleTimeoutSeconds: number;
  /** MIN_BODY_RATE_BYTES_PER_SECOND over MIN_BODY_RATE_WINDOW_SECONDS. */
  readonly minimumBodyRate: MinimumBodyRate;
  /** MAX_CONNECTIONS_PER_ADDRESS; 0: no cap. */
  readonly maxConnectionsPerAddress: number;
  /** Where requests refused before the app are logged. */
  readonly logger?: Logger;
}

/** The listen options the server's settings set. */
export function listenOptions(settings: ServerSettings, logger?: Logger): ListenOptions {
  return {
    idleTimeoutSeconds: settings.requestIdleTimeoutSeconds,
    minimumBodyRate: settings.minimumBodyRate,
    maxConnectionsPerAddress: settings.maxConnectionsPerAddress,
    logger,
  };
}

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

/**
 * The HTTP server's connections, managed here once. No request has a total time limit, so a long
 * streamed import that keeps sending is never cut; silence is: headers that have not all come, or a
 * body that stops arriving, within the idle timeout. A request whose body stalls is told (STALLED) and
 * the app answers it; one the app is working on is left to the app's own bounds (the dependency
 * timeouts). While the server closes, a keep-alive connection ends with its last answer instead of
 * holding the close until the keep-alive timeout, and a connection with no request begun ends at once:
 * Node counts a connection that has sent nothing yet (a browser's preconnect) as busy, which would hold
 * the close until the idle timeout.
 */
function manageConnections(
  server: Server,
  idleMs: number,
  answerHalfSentHeaders: (socket: Socket) => void,
): { beginClosing(): void; readonly requestOn: (socket: Socket) => IncomingMessage | undefined } {
  const stalled: StallReason = { kind: 'idle', seconds: idleMs / 1000 };
  server.requestTimeout = 0;
  server.headersTimeout = idleMs;
  server.timeout = idleMs;
  let closing = false;
  const open = new Set<Socket>();
  const current = new WeakMap<Socket, IncomingMessage>();
  // Bytes the connection had sent when its last answer ended: more since then is a request begun.
  const readAtLastAnswer = new WeakMap<Socket, number>();
  const requestBegun = (socket: Socket) => socket.bytesRead > (readAtLastAnswer.get(socket) ?? 0);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    current.set(socket, req);
    res.once('close', () => {
      current.delete(socket);
      readAtLastAnswer.set(socket, socket.bytesRead);
      if (closing) server.closeIdleConnections();
    });
  });
  server.on('timeout', (socket: Socket) => {
    const req = current.get(socket);
    if (req !== undefined) {
      if (!req.complete && !req.emit(STALLED, stalled)) socket.destroy();
    } else if (requestBegun(socket)) {
      answerHalfSentHeaders(socket);
    } else {
      socket.destroy();
    }
  });
  return {
    beginClosing: () => {
      closing = true;
      server.closeIdleConnections();
      for (const socket of open) if (current.get(socket) === undefined && !requestBegun(socket)) socket.destroy();
    },
    // Until its answer's 'close', which comes after Node has ended or kept the connection.
    requestOn: (socket) => current.get(socket),
  };
}

export async function listen(app: Express, host: string, port: number, options: ListenOptions): Promise<RunningServer> {
  const checkedHead = refuseBadHeads(options.logger, app);
  // Host and the header count are checked by refuseBadHeads, whose answer has a body; Node's has none.
  // A connection refused for its address's cap was answered already: its requests get nothing more.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    if (!wasRefusedConnection(req.socket)) checkedHead(req, res);
  });
  server.maxHeadersCount = MOST_REQUEST_HEADERS + 1;
  const idleSeconds = options.idleTimeoutSeconds;
  const clientError = answerClientError(options.logger, idleSeconds);
  const connections = manageConnections(server, idleSeconds * 1000, (socket) => clientError(headersTimeout(), socket));
  server.on('clientError', clientError);
  server.on('checkExpectation', answerUnmetExpectation(options.logger));
  server.on('connect', answerConnect(options.logger));
  enforceMinimumBodyRate(server, options.minimumBodyRate);
  lingerAfterEarlyAnswers(server, connections.requestOn, LINGERING_BOUNDS);
  capConnectionsPerAddress(server, options.maxConnectionsPerAddress, options.logger, LINGERING_BOUNDS);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        connections.beginClosing();
      }),
  };
}
