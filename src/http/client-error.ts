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

/** The one refusal these requests get: its id, and the headers and JSON body of a 400. */
function refusal(message: string): { readonly requestId: string; readonly headers: Record<string, string>; readonly body: string } {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: message });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    Connection: 'close',
  };
  return { requestId, headers, body };
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
    const { requestId, headers, body } = refusal(message);
    logger?.warn({ requestId, code: error.code, reason: message }, 'request refused by the HTTP parser');
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(`HTTP/1.1 400 ${STATUS_CODES[400]}\r\n${head.join('')}\r\n${body}`);
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
