import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliverBody, dropConnection, faultOf, type BodyDelivery } from './connection-faults';

/*
 * The faults on a bare Node server, whose route writes its answer as the test says: what each sends on
 * the wire, and what it lets go of.
 */

let server: Server;
let route: (req: IncomingMessage, res: ServerResponse) => void;

beforeEach(async () => {
  server = createServer((req, res) => route(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

interface Received {
  readonly status: number | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** How the exchange ended: `end` for a whole answer, else the error's message. */
  readonly ended: string;
}

/** One GET on a connection of its own, read to its end or its error. */
function get(method = 'GET'): Promise<Received> {
  return new Promise((resolve) => {
    const { port } = server.address() as AddressInfo;
    const sent = request({ host: '127.0.0.1', port, method, agent: false });
    let received: { status: number | undefined; headers: IncomingMessage['headers']; body: string } = { status: undefined, headers: {}, body: '' };
    sent.on('response', (response) => {
      received = { status: response.statusCode, headers: response.headers, body: '' };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (received = { ...received, body: received.body + chunk }));
      response.on('end', () => resolve({ ...received, ended: 'end' }));
      response.on('error', (error) => resolve({ ...received, ended: error.message }));
    });
    sent.on('error', (error) => resolve({ ...received, ended: error.message }));
    sent.end();
  });
}

/** A route that faults its answer, then writes `body` in the pieces given, as Express's res.send or a stream would. */
function faultedRoute(delivery: BodyDelivery, pieces: readonly string[], released: () => void = () => undefined): void {
  route = (_req, res) => {
    deliverBody(res, delivery, released);
    res.setHeader('Content-Type', 'text/plain');
    for (const piece of pieces.slice(0, -1)) res.write(piece);
    res.end(pieces.at(-1));
  };
}

describe('dropConnection', () => {
  test('reset: the client reads ECONNRESET, and the answer is marked with its fault', async () => {
    const answers: ServerResponse[] = [];
    route = (_req, res) => {
      answers.push(res);
      expect(dropConnection(res, 'reset').message).toBe('the connection was reset before the answer, as a scenario asked');
    };
    expect(await get()).toEqual({ status: undefined, headers: {}, body: '', ended: 'read ECONNRESET' });
    expect(answers.map(faultOf)).toEqual(['reset']);
  });

  test('empty: the client reads the end of the connection where the status line should be', async () => {
    route = (_req, res) => {
      expect(dropConnection(res, 'empty').message).toBe('the connection was closed before the answer, as a scenario asked');
    };
    expect(await get()).toEqual({ status: undefined, headers: {}, body: '', ended: 'socket hang up' });
  });
});

describe('deliverBody', () => {
  test('truncated: the status, the headers with the length of the whole body, and its first half, then the connection closed', async () => {
    faultedRoute({ fault: 'truncated' }, ['0123', '4567', '89']);
    const received = await get();
    expect(received).toMatchObject({ status: 200, body: '01234', ended: 'aborted' });
    expect(received.headers['content-length']).toBe('10');
    expect(received.headers['transfer-encoding']).toBeUndefined();
  });

  test('truncated: an answer without a body is its head, then the connection closed', async () => {
    faultedRoute({ fault: 'truncated' }, ['']);
    expect(await get('HEAD')).toMatchObject({ status: 200, body: '', ended: 'end' });
  });

  test('drip: the whole body, in the order written, with its length', async () => {
    faultedRoute({ fault: 'drip', bytesPerSecond: 100, mostMs: 60_000 }, ['abc', 'def', 'ghij']);
    const received = await get();
    expect(received).toMatchObject({ status: 200, body: 'abcdefghij', ended: 'end' });
    expect(received.headers['content-length']).toBe('10');
  });

  test('drip: what is left after mostMs goes at once', async () => {
    faultedRoute({ fault: 'drip', bytesPerSecond: 1, mostMs: 0 }, ['a'.repeat(1000)]);
    expect(await get()).toMatchObject({ status: 200, body: 'a'.repeat(1000), ended: 'end' });
  });

  test('drip: lets go of the answer once, when it is sent', async () => {
    let released = 0;
    faultedRoute({ fault: 'drip', bytesPerSecond: 1_000, mostMs: 60_000 }, ['whole'], () => (released += 1));
    await get();
    expect(released).toBe(1);
  });

  test('lets go at once of an answer whose client left before the fault began, as during a delay', async () => {
    let released!: () => void;
    const releasedOnce = new Promise<void>((resolve) => (released = resolve));
    route = (_req, res) => {
      res.once('close', () => {
        deliverBody(res, { fault: 'drip', bytesPerSecond: 1, mostMs: 60_000 }, released);
        expect(faultOf(res)).toBeUndefined();
      });
    };
    const { port } = server.address() as AddressInfo;
    const sent = request({ host: '127.0.0.1', port, agent: false });
    sent.on('error', () => undefined);
    sent.end();
    await once(server, 'request');
    sent.destroy();
    await releasedOnce;
  });

  test('drip: lets go of the answer, and sends no more, when the client leaves', async () => {
    const answers: ServerResponse[] = [];
    let released!: () => void;
    const releasedOnce = new Promise<void>((resolve) => (released = resolve));
    route = (_req, res) => {
      answers.push(res);
      deliverBody(res, { fault: 'drip', bytesPerSecond: 1, mostMs: 60_000 }, released);
      res.end('x'.repeat(100));
    };
    const { port } = server.address() as AddressInfo;
    const sent = request({ host: '127.0.0.1', port, agent: false });
    sent.on('error', () => undefined);
    sent.end();
    await once(sent, 'response');
    sent.destroy();
    await releasedOnce;
    const [answer] = answers as [ServerResponse];
    expect(answer.writableEnded).toBe(false);
    expect(faultOf(answer)).toBe('drip');
  });
});
