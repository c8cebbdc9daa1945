import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * Faults below HTTP, done to one answer on its own connection: what a client's retry code meets on a
 * real network. The sandbox's scenarios decide which request meets one; this module only does it, and
 * remembers it for the access log and the error handler. A fault holds nothing past its answer: the
 * socket is destroyed, a timer cleared, the body let go.
 */

export const CONNECTION_FAULTS = ['reset', 'empty', 'truncated', 'drip'] as const;
export type ConnectionFault = (typeof CONNECTION_FAULTS)[number];

/** The faults that end the connection before any byte of the answer: the route has nothing left to do, and no status is sent. */
export type DroppedConnection = Extract<ConnectionFault, 'reset' | 'empty'>;

export const isDroppedConnection = (fault: ConnectionFault | undefined): fault is DroppedConnection => fault === 'reset' || fault === 'empty';

type Answer = ServerResponse<IncomingMessage>;

const faults = new WeakMap<Answer, ConnectionFault>();

/** The fault done to an answer, for its access line; undefined for an answer sent as it was written. */
export function faultOf(res: Answer): ConnectionFault | undefined {
  return faults.get(res);
}

/**
 * What a route's step throws once the connection is dropped, so that no later step computes an answer
 * for no one; the error handlers let it pass unanswered and unlogged (the access line tells the fault).
 */
export class ConnectionDropped extends Error {
  override readonly name = 'ConnectionDropped';

  constructor(readonly fault: DroppedConnection) {
    super(`the connection was ${fault === 'reset' ? 'reset' : 'closed'} before the answer, as a scenario asked`);
  }
}

/**
 * Ends the connection before a byte of the answer: `reset` with a TCP RST (the client reads ECONNRESET),
 * `empty` with a FIN (the client reads end of stream where the status line should be).
 */
export function dropConnection(res: Answer, fault: DroppedConnection): ConnectionDropped {
  faults.set(res, fault);
  const socket = res.socket;
  if (socket !== null && !socket.destroyed) {
    if (fault === 'reset') socket.resetAndDestroy();
    else socket.destroy();
  }
  return new ConnectionDropped(fault);
}

/** How the body of an answer is sent once the route has written all of it. */
export type BodyDelivery =
  /** Its status, its headers and the first half of its body, then the connection closed. */
  | { readonly fault: 'truncated' }
  /** Its status and headers at once, then its body at `bytesPerSecond`; what is left after `mostMs` at once. */
  | { readonly fault: 'drip'; readonly bytesPerSecond: number; readonly mostMs: number };

/** How often a drip sends what its rate allows since it began: ten times a second keeps the rate even without a write per byte. */
const DRIP_TICK_MS = 100;

type WriteCallback = (error?: Error | null) => void;

/**
 * Holds what the route writes until it ends the answer, then sends it as `delivery` says. The answer keeps
 * the headers the route gave it; one the route left without a length gets the one Node would have given
 * a body ended at once, so that a client can tell a cut body. `released` runs once the answer is done
 * with, sent or abandoned by its client: at once for a client that left before (during a delay, say),
 * whose answer goes nowhere and is left as any other is.
 */
export function deliverBody(res: Answer, delivery: BodyDelivery, released: () => void): void {
  if (res.destroyed) {
    released();
    return;
  }
  faults.set(res, delivery.fault);
  const chunks: Buffer[] = [];
  const sendWrite = res.write.bind(res) as (chunk: Buffer, callback?: WriteCallback) => boolean;
  const sendEnd = res.end.bind(res) as (chunk?: Buffer, callback?: () => void) => Answer;
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    chunks.length = 0;
    released();
  };
  res.once('close', release);

  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
  };
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    collect(chunk, encoding);
    const written = [encoding, callback].find((argument) => typeof argument === 'function') as WriteCallback | undefined;
    if (written !== undefined) process.nextTick(written);
    return true;
  }) as Answer['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    collect(chunk, encoding);
    const ended = [chunk, encoding, callback].find((argument) => typeof argument === 'function') as (() => void) | undefined;
    if (ended !== undefined) res.once('finish', ended);
    const body = Buffer.concat(chunks);
    chunks.length = 0;
    if (!res.hasHeader('Content-Length') && !res.hasHeader('Transfer-Encoding') && !bodyless(res)) res.setHeader('Content-Length', body.length);
    if (delivery.fault === 'truncated') cut(res, body, sendWrite, release);
    else drip(res, body, delivery, sendWrite, sendEnd, release);
    return res;
  }) as Answer['end'];
}

/** Answers that carry no body whatever their headers say: Node writes none for them. */
function bodyless(res: Answer): boolean {
  return res.req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
}

function cut(res: Answer, body: Buffer, sendWrite: (chunk: Buffer, callback?: WriteCallback) => boolean, release: () => void): void {
  res.flushHeaders();
  sendWrite(body.subarray(0, Math.floor(body.length / 2)), () => {
    res.socket?.destroy();
    release();
  });
}

function drip(
  res: Answer,
  body: Buffer,
  { bytesPerSecond, mostMs }: Extract<BodyDelivery, { fault: 'drip' }>,
  sendWrite: (chunk: Buffer, callback?: WriteCallback) => boolean,
  sendEnd: (chunk?: Buffer, callback?: () => void) => Answer,
  release: () => void,
): void {
  res.flushHeaders();
  const started = Date.now();
  let sent = 0;
  // What the rate allows since the start, not per tick: a late timer sends more, so that the rate holds under load.
  const tick = () => {
    const elapsed = Date.now() - started;
    const due = elapsed >= mostMs ? body.length : Math.min(body.length, Math.floor((elapsed * bytesPerSecond) / 1000));
    if (due > sent) sendWrite(body.subarray(sent, due));
    sent = due;
    if (sent < body.length) return;
    clearInterval(timer);
    sendEnd(undefined, release);
  };
  const timer = setInterval(tick, DRIP_TICK_MS);
  res.once('close', () => clearInterval(timer));
}

