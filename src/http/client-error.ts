import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/**
 * Requests that Node's HTTP parser refuses never reach Express. They get what every other refusal
 * gets: a JSON error body (the request cannot be trusted to say what it accepts), a request id, and a
 * status of the specification's section 7, here always 400; then the connection is closed.
 */
function parserMessage(error: NodeJS.ErrnoException & { reason?: unknown }, idleSeconds: number): string {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return `the request headers are larger than ${maxHeaderSize} bytes`;
    case 'HPE_INVALID_METHOD':
      return 'the request method is not valid HTTP';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return `the request headers did not all arrive within ${idleSeconds} s`;
    default:
      return typeof error.reason === 'string' && error.reason !== ''
        ? `the request is not valid HTTP: ${error.reason}`
        : 'the request is not valid HTTP';
  }
}

/** The one refusal these requests get: its id, and the headers and JSON body of its answer. */
function refusal(
  message: string,
  extraHeaders: Readonly<Record<string, string>> = {},
): { readonly requestId: string; readonly headers: Record<string, string>; readonly body: string } {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: message });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    ...extraHeaders,
    Connection: 'close',
  };
  return { requestId, headers, body };
}

/**
 * Writes a whole refusal on a socket no response object owns, then ends the connection (`close`, or at
 * once); returns the refusal's request id, for the log.
 */
export function endWithRefusal(
  socket: Duplex,
  status: number,
  message: string,
  extraHeaders: Readonly<Record<string, string>> = {},
  close: (socket: Duplex) => void = (ending) => ending.end(),
): string {
  const { requestId, headers, body } = refusal(message, extraHeaders);
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head.join('')}\r\n${body}`);
  close(socket);
  return requestId;
}

/** The error Node itself raises when headers time out, for the server's own idle timer to answer alike. */
export function headersTimeout(): NodeJS.ErrnoException {
  return Object.assign(new Error('the request headers timed out'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
}

/** The server's 'clientError' listener. */
export function answerClientError(logger: Logger | undefined, idleSeconds: number) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    // A connection reset, or one whose current answer has begun: nothing more can be said on it.
    const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) {
      socket.destroy();
      return;
    }
    const message = parserMessage(error, idleSeconds);
    const requestId = endWithRefusal(socket, 400, message);
    logger?.warn({ requestId, code: error.code, reason: message }, 'request refused by the HTTP parser');
  };
}

/**
 * The server's 'connect' listener. Without one Node closes the connection without a word; this server
 * is no proxy, so CONNECT is a method it does not allow on any path, and is told so.
 */
export function answerConnect(logger: Logger | undefined) {
  return (_req: IncomingMessage, socket: Duplex): void => {
    const requestId = endWithRefusal(socket, 405, 'CONNECT is not allowed: this server is not a proxy', { Allow: 'GET, HEAD, POST, PUT, DELETE' });
    logger?.warn({ requestId, method: 'CONNECT' }, 'request refused: CONNECT');
  };
}

/** The most headers a request may have: Node keeps one more, so that one past it is seen and refused rather than dropped. */
export const MOST_REQUEST_HEADERS = 2000;

/**
 * What is wrong with a request's head that Node lets through or answers without a body: an HTTP/1.1
 * request without Host (RFC 9112 asks for a 400; Node's own has no body), or more headers than the
 * server reads (Node would silently drop the rest, Host perhaps among them). Undefined when nothing is.
 */
function headProblem(req: IncomingMessage): string | undefined {
  if (req.rawHeaders.length / 2 > MOST_REQUEST_HEADERS) {
    return `the request has more than ${MOST_REQUEST_HEADERS.toLocaleString('en-US')} headers`;
  }
  if (req.httpVersion === '1.1' && req.headers.host === undefined) return 'an HTTP/1.1 request must have a Host header';
  return undefined;
}

/**
 * Runs before the app on every request: refuses one whose head is wrong (see headProblem) as the parser's
 * refusals are, and hands the others to the app.
 */
export function refuseBadHeads(logger: Logger | undefined, app: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const problem = headProblem(req);
    if (problem === undefined) {
      app(req, res);
      return;
    }
    const { requestId, headers, body } = refusal(problem);
    logger?.warn({ requestId, reason: problem }, 'request refused: its head');
    res.writeHead(400, headers).end(body);
  };
}

/** The server's 'checkExpectation' listener: an `Expect` other than 100-continue, refused like the rest. */
export function answerUnmetExpectation(logger: Logger | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const { requestId, headers, body } = refusal(
      `Expect: ${req.headers.expect ?? ''} is not supported; send the request without it, or with Expect: 100-continue`,
    );
    logger?.warn({ requestId, expect: req.headers.expect }, 'unsupported Expect');
    res.writeHead(400, headers).end(body);
  };
}
