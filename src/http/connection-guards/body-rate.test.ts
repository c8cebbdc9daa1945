import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { enforceMinimumBodyRate, type BodyRateSweeps } from './body-rate';
import { STALLED } from './stalled-body';

/** A clock the test moves and a sweep the test runs. */
class ManualSweeps implements BodyRateSweeps {
  private time = 0;
  private sweep: (() => void) | undefined;

  now(): number {
    return this.time;
  }

  every(_intervalMs: number, sweep: () => void): () => void {
    this.sweep = sweep;
    return () => (this.sweep = undefined);
  }

  /** Moves the clock by `ms` and runs the sweep, as its timer would. */
  pass(ms: number): void {
    this.time += ms;
    this.sweep?.();
  }
}

const RATE = { bytesPerSecond: 240, windowSeconds: 1 };
const BODY = Buffer.alloc(4 * 1024 * 1024, 'a');

let server: Server;

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * A server whose handler pauses the body at once, says so, and answers with the body's length once
 * `resume` is called; a body it is told is too slow it answers 408. A 4 MiB body sent at once fills the
 * socket's buffers, so Node stops reading the connection while the handler holds the body.
 */
async function pausingServer(sweeps: BodyRateSweeps): Promise<{ url: string; paused: Promise<() => void> }> {
  let heard: (resume: () => void) => void = () => undefined;
  const paused = new Promise<() => void>((resolve) => (heard = resolve));
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.on(STALLED, () => res.writeHead(408).end('too slow'));
    req.pause();
    heard(() => {
      let length = 0;
      req.on('data', (chunk: Buffer) => (length += chunk.length));
      req.on('end', () => res.end(String(length)));
      req.resume();
    });
  });
  enforceMinimumBodyRate(server, RATE, sweeps);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, paused };
}

function post(url: string): Promise<{ status: number | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', headers: { 'content-length': BODY.length } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    sent.on('error', reject);
    sent.end(BODY);
  });
}

describe('the least body rate while the app is not reading', () => {
  test('a body the app holds for windows on end is not cut, and is read whole once the app resumes', async () => {
    const sweeps = new ManualSweeps();
    const { url, paused } = await pausingServer(sweeps);
    const answer = post(url);
    const resume = await paused;
    // Three windows with the app not reading: the sender sends nothing new, and it is not the sender's delay.
    for (let window = 0; window < 3; window++) sweeps.pass(1000);
    resume();
    expect(await answer).toEqual({ status: 200, body: String(BODY.length) });
  });

  test('a body that trickles while the app reads it is still cut', async () => {
    const sweeps = new ManualSweeps();
    server = createServer((req, res) => {
      req.on(STALLED, () => res.writeHead(408, { connection: 'close' }).end('too slow'));
      req.on('data', () => undefined);
    });
    enforceMinimumBodyRate(server, RATE, sweeps);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const sent = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', headers: { 'content-length': 1000 } });
    const answered = once(sent, 'response') as Promise<[IncomingMessage]>;
    sent.write('<');
    // The request is under way on the server once its 'request' came: then a window passes with one byte.
    await once(server, 'request');
    sweeps.pass(1000);
    const [res] = await answered;
    expect(res.statusCode).toBe(408);
    sent.destroy();
  });
});
