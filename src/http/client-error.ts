import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { errors, type AppError } from '../errors/catalogue';
import { ERROR_CODE_HEADER } from './representation';

/**
 * Requests that Node's HTTP parser refuses never reach Express. They get what every other refusal
 * gets: a catalogue error as a JSON body (the request cannot be trusted to say what it accepts), with
 * its code and a request id, and a status the reporting API has (specification.md §2.1), here always 400; then the
 * connection is closed.
 */
function parserRefusal(error: NodeJS.ErrnoException & { reason?: unknown }, idleSeconds: number): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return errors.headersTooLarge(maxHeaderSize);
    case 'HPE_INVALID_METHOD':
      return errors.malformedRequest('the request method is not valid HTTP');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.headersStalled(idleSeconds);
    default:
      return errors.malformedRequest(
        typeof error.reason === 'string' && error.reason !== '' ? `the request is not valid HTTP: ${error.reason}` : 'the request is not valid HTTP',
      );
  }
}

/** The one answer these requests get: a request id, the error's headers and code, and its JSON body. */
function refusal(error: AppError): { readonly requestId: string; readonly headers: Record<string, string>; readonly body: string } {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: error.message });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    [ERROR_CODE_HEADER]: error.code,
    ...error.headers,
  };
  return { requestId, headers, body };
}

/**
 * Writes a whole refusal on a socket no response object owns, then ends the connection (`close`, or at
 * once); returns the refusal's request id, for the log.
 */
export function endWithRefusal(socket: Duplex, error: AppError, close: (socket: Duplex) => void = (ending) => ending.end()): string {
  const { requestId, headers, body } = refusal(error);
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ''}\r\n${head.join('')}\r\n${body}`);
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
    const refused = parserRefusal(error, idleSeconds);
    const requestId = endWithRefusal(socket, refused);
    logger?.warn({ requestId, code: refused.code, parserCode: error.code, reason: refused.message }, 'request refused by the HTTP parser');
  };
}

/**
 * The server's 'connect' listener. Without one Node closes the connection without a word; this server
 * is no proxy, so CONNECT is a method it does not allow on any path, and is told so.
 */
export function answerConnect(logger: Logger | undefined) {
  return (_req: IncomingMessage, socket: Duplex): void => {
    const refused = errors.notAProxy();
    const requestId = endWithRefusal(socket, refused);
    logger?.warn({ requestId, code: refused.code, method: 'CONNECT' }, 'request refused: CONNECT');
  };
}

/** The most headers a request may have: Node keeps one more, so that one past it is seen and refused rather than dropped. */
export const MOST_REQUEST_HEADERS = 2000;

/**
 * What is wrong with a request's head that Node lets through or answers without a body: an HTTP/1.1
 * request without Host (RFC 9112 asks for a 400; Node's own has no body), or more headers than the
 * server reads (Node would silently drop the rest, Host perhaps among them). Undefined when nothing is.
 */
function headProblem(req: IncomingMessage): AppError | undefined {
  if (req.rawHeaders.length / 2 > MOST_REQUEST_HEADERS) return errors.tooManyHeaders(MOST_REQUEST_HEADERS);
  if (req.httpVersion === '1.1' && req.headers.host === undefined) return errors.missingHost();
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
    logger?.warn({ requestId, code: problem.code, reason: problem.message }, 'request refused: its head');
    res.writeHead(problem.statusCode, headers).end(body);
  };
}

/** The server's 'checkExpectation' listener: an `Expect` other than 100-continue, refused like the rest. */
export function answerUnmetExpectation(logger: Logger | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const refused = errors.unsupportedExpectation(req.headers.expect ?? '');
    const { requestId, headers, body } = refusal(refused);
    logger?.warn({ requestId, code: refused.code, expect: req.headers.expect }, 'unsupported Expect');
    res.writeHead(refused.statusCode, headers).end(body);
  };
}
