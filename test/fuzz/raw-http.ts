import { once } from 'node:events';
import { connect } from 'node:net';

export interface RawRequest {
  readonly method: string;
  /** Sent as it is: escapes, unicode and all. */
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The request's bytes exactly as built, with Content-Length and Connection: close added. */
function serialize(request: RawRequest): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${request.body.length}`, 'Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'utf8'), request.body]);
}

function parse(bytes: Buffer): RawResponse {
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) throw new Error(`no complete response head in ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: bytes.subarray(split + 4).toString('utf8') };
}

/** Sends one request on a new connection and reads the answer until the server closes it. */
export async function sendRaw(url: string, request: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The server may answer and close before it has read everything sent: a reset then is not a failure.
  socket.on('error', () => undefined);
  // Written, not ended: like ordinary clients, this one does not half-close, which Node's server takes
  // for an abort. Connection: close makes the server end the exchange.
  socket.write(serialize(request));
  await once(socket, 'close');
  return parse(Buffer.concat(chunks));
}
