import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientGoneSignal } from './client-gone';

let server: Server;
let signals: AbortSignal[];

beforeEach(async () => {
  signals = [];
  // Answers /answer at once; holds /hold unanswered, as a request waiting for a password hash is.
  server = createServer((req, res) => {
    signals.push(clientGoneSignal(res));
    if (req.url === '/answer') res.end('done');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

const port = () => (server.address() as AddressInfo).port;

describe('clientGoneSignal', () => {
  test('aborts when the client closes the connection before its answer', async () => {
    const sent = request({ host: '127.0.0.1', port: port(), path: '/hold' });
    sent.on('error', () => undefined);
    sent.end();
    await once(server, 'request');
    const [signal] = signals;
    sent.destroy();
    await once(signal as AbortSignal, 'abort');
    expect((signal?.reason as Error).message).toBe('the client closed the connection before the answer');
  });

  test('does not abort once the answer has been sent, whatever the connection does next', async () => {
    const sent = request({ host: '127.0.0.1', port: port(), path: '/answer', agent: false });
    sent.end();
    const [response] = (await once(sent, 'response')) as [NodeJS.ReadableStream];
    response.resume();
    await once(response, 'end');
    sent.destroy();
    server.closeAllConnections();
    await once(sent, 'close');
    expect(signals[0]?.aborted).toBe(false);
  });
});
