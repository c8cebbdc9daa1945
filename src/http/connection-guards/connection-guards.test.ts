import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { composeApp } from '../../composition-root';
import { loadConfig } from '../../configuration';
import { createLogger } from '../../logger';
import { listen, listenOptions, type RunningServer } from '../../listen';
import { createMemoryStore } from '../../storage/memory/memory-store';
import { FakeClock } from '../../../test/support/fake-clock';
import { LogLines } from '../../../test/support/log-lines';
import { faultBody } from '../../../test/survey-clients/support';

const ADMIN_TOKEN = 'test-admin-token-0123456789';

let running: RunningServer;
let logs: LogLines;

/** The server as `npm start` listens, with the settings of `env`. */
async function start(env: NodeJS.ProcessEnv): Promise<void> {
  logs = new LogLines();
  const logger = createLogger('info', logs);
  const config = loadConfig(env);
  const app = composeApp(config, { store: createMemoryStore(), clock: new FakeClock(), logger });
  running = await listen(app, '127.0.0.1', 0, listenOptions(config.server, logger));
}

afterEach(async () => {
  if (!running.server.listening) return;
  running.server.closeAllConnections();
  await running.close();
});

/** A connection to the server that collects what it is sent, and says when the server closed it. */
function open(): { socket: Socket; received: () => string; closed: Promise<unknown> } {
  const url = new URL(running.url);
  const socket = connect(Number(url.port), url.hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  return { socket, received: () => text, closed: once(socket, 'close') };
}

function parse(raw: string): { status: string; headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const [status = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]));
  return { status, headers, body: raw.slice(split + 4) };
}

describe('the least body rate (MIN_BODY_RATE_BYTES_PER_SECOND over MIN_BODY_RATE_WINDOW_SECONDS)', () => {
  // The idle timeout is an hour: a byte now and then is never idle, so only the rate can end these.
  const slowly = { REQUEST_IDLE_TIMEOUT_SECONDS: '3600', MIN_BODY_RATE_BYTES_PER_SECOND: '240', MIN_BODY_RATE_WINDOW_SECONDS: '1' };
  const message = 'the request body arrives too slowly: less than 240 bytes/s over 1 s (MIN_BODY_RATE_BYTES_PER_SECOND)';

  async function trickle(path: string, contentType: string): Promise<ReturnType<typeof parse>> {
    const connection = open();
    connection.socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Length: 1000\r\n\r\n<`);
    await connection.closed;
    return parse(connection.received());
  }

  test('cuts a body that trickles on the reporting API with 400 (its statuses are the specification\'s) and closes the connection', async () => {
    await start(slowly);
    const answer = await trickle('/api/auth', 'application/x-www-form-urlencoded');
    expect({ status: answer.status, code: answer.headers['x-error-code'], connection: answer.headers.connection, body: JSON.parse(answer.body) }).toEqual({
      status: 'HTTP/1.1 400 Bad Request',
      code: 'IVR_BODY_TOO_SLOW',
      connection: 'close',
      body: { error: message },
    });
  });

  test('cuts one elsewhere with 408', async () => {
    await start({ ADMIN_TOKEN, ...slowly });
    const answer = await trickle('/admin/calls', 'application/x-ndjson');
    expect({ status: answer.status, code: answer.headers['x-error-code'], connection: answer.headers.connection, body: JSON.parse(answer.body) }).toEqual({
      status: 'HTTP/1.1 408 Request Timeout',
      code: 'IVR_BODY_TOO_SLOW',
      connection: 'close',
      body: { error: message },
    });
  });

  test('cuts one on the SOAP service with a soap:Client fault', async () => {
    await start(slowly);
    const answer = await trickle('/survey', 'text/xml; charset=utf-8');
    expect({ status: answer.status, code: answer.headers['x-error-code'], body: answer.body }).toEqual({
      status: 'HTTP/1.1 500 Internal Server Error',
      code: 'IVR_BODY_TOO_SLOW',
      body: faultBody('soap:Client', message),
    });
  });
});

const execFileAsync = promisify(execFile);

/**
 * Python's urllib, which writes the whole body before it reads the answer: a server that closes the
 * connection while the body still comes resets it, and urllib never reads the answer it was sent.
 */
const URLLIB_POST = `
import sys, urllib.request, urllib.error
body = b"<x>" + b"a" * int(sys.argv[2])
request = urllib.request.Request(sys.argv[1], data=body, method="POST",
    headers={"Content-Type": "text/xml; charset=utf-8", "SOAPAction": '"urn:SampleWebserviceAction"', "Connection": "close"})
try:
    urllib.request.urlopen(request)
except urllib.error.HTTPError as error:
    print(error.code, error.read().decode())
except OSError as error:
    print("failed", type(error).__name__)
`;

describe('lingering close', () => {
  test('lets a client that sends Connection: close and a body refused early finish sending and read the 413', async () => {
    await start({ SOAP_MAX_BYTES: '1024' });
    const { stdout } = await execFileAsync('python3', ['-c', URLLIB_POST, `${running.url}/survey`, String(4 * 1024 * 1024)]);
    expect(stdout).toBe(`413 ${faultBody('soap:Client', 'request body is larger than 1024 bytes')}\n`);
  });

  test('reads for no longer than its bounds: a client that never stops sending is closed', async () => {
    await start({ SOAP_MAX_BYTES: '1024' });
    const connection = open();
    connection.socket.write('POST /survey HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = `100000\r\n${'a'.repeat(0x100000)}\r\n`;
    // 1 MiB chunks until the server closes: past its 16 MiB of lingering at the latest.
    const sending = (async () => {
      while (!connection.socket.destroyed) {
        if (!connection.socket.write(chunk)) await Promise.race([once(connection.socket, 'drain'), connection.closed]);
      }
    })();
    await connection.closed;
    await sending;
    expect(parse(connection.received()).status).toBe('HTTP/1.1 413 Payload Too Large');
  });
});

describe('the connection cap per address (MAX_CONNECTIONS_PER_ADDRESS)', () => {
  test('answers a connection past the cap at once with 429, Retry-After and a JSON body, closes it, and logs it', async () => {
    await start({ MAX_CONNECTIONS_PER_ADDRESS: '2' });
    const kept = [open(), open()];
    await Promise.all(kept.map(({ socket }) => once(socket, 'connect')));
    const refused = open();
    await refused.closed;
    const answer = parse(refused.received());
    expect({ status: answer.status, code: answer.headers['x-error-code'], retryAfter: answer.headers['retry-after'], connection: answer.headers.connection, body: JSON.parse(answer.body) }).toEqual({
      status: 'HTTP/1.1 429 Too Many Requests',
      code: 'IVR_TOO_MANY_CONNECTIONS',
      retryAfter: '1',
      connection: 'close',
      body: { error: 'too many connections from this address at once (MAX_CONNECTIONS_PER_ADDRESS, 2); close some, or retry after Retry-After' },
    });
    expect(await logs.waitFor('connection refused: too many from its address')).toMatchObject({ level: 40, remoteAddress: '127.0.0.1', connections: 2 });
    // The kept connections are served as usual.
    const [first] = kept;
    first?.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await first?.closed;
    expect(parse(first?.received() ?? '').status).toBe('HTTP/1.1 200 OK');
  });

  test('counts a connection no more once it has closed', async () => {
    await start({ MAX_CONNECTIONS_PER_ADDRESS: '1' });
    const first = open();
    first.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await first.closed;
    // The server may see the close a moment after the client: a refused attempt is tried again.
    let status = '';
    for (let attempt = 0; attempt < 100 && !status.includes('200'); attempt += 1) {
      const next = open();
      next.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      await next.closed;
      status = parse(next.received()).status;
    }
    expect(status).toBe('HTTP/1.1 200 OK');
  });
});

describe("the server's close", () => {
  // The idle timeout is an hour: a connection left to it would hold the close past the test's timeout.
  const patiently = { REQUEST_IDLE_TIMEOUT_SECONDS: '3600' };

  /** The server's side of the next `count` connections, once it has accepted them all. */
  function accepted(count: number): Promise<Socket[]> {
    const sockets: Socket[] = [];
    return new Promise((resolve) => {
      const onConnection = (socket: Socket) => {
        sockets.push(socket);
        if (sockets.length < count) return;
        running.server.off('connection', onConnection);
        resolve(sockets);
      };
      running.server.on('connection', onConnection);
    });
  }

  /** Resolves once the server has read something from the connection. */
  async function readBy(socket: Socket): Promise<void> {
    while (socket.bytesRead === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  test('ends at once a connection that has sent nothing (a browser\'s preconnect) and one kept alive after its answer', async () => {
    await start(patiently);
    const both = accepted(2);
    const silent = open();
    const kept = open();
    await both;
    kept.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await once(kept.socket, 'data');
    await running.close();
    await Promise.all([silent.closed, kept.closed]);
    expect(silent.received()).toBe('');
    expect(parse(kept.received()).status).toBe('HTTP/1.1 200 OK');
  });

  test('lets a request begun before it finish, and answers it', async () => {
    await start(patiently);
    const serverSide = accepted(1);
    const connection = open();
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const [socket] = await serverSide;
    await readBy(socket as Socket);
    const closing = running.close();
    connection.socket.write('\r\n');
    await Promise.all([closing, connection.closed]);
    expect(parse(connection.received()).status).toBe('HTTP/1.1 200 OK');
  });
});
