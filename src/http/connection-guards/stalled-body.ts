import type { Request, Response } from 'express';
import type { RequestStep } from '../request-edge';

/**
 * What listen.ts emits, with a StallReason, on a request whose body stopped arriving for the idle
 * timeout or arrives slower than the least rate (see `listen`).
 */
export const STALLED = 'stalled';

export type StallReason =
  | { readonly kind: 'idle'; readonly seconds: number }
  | { readonly kind: 'slow'; readonly bytesPerSecond: number; readonly windowSeconds: number };

const answeredAsStalled = new WeakSet<Request>();

/** Whether the request was answered because its body stalled: a later failure to read the body is expected. */
export function wasAnsweredAsStalled(req: Request): boolean {
  return answeredAsStalled.has(req);
}

/**
 * Gives a request whose body stopped arriving, or crawls, its answer (`answer`: the API's error body, or the survey
 * service's SOAP fault) with `Connection: close`, so that the connection ends with it; the readers of
 * the body then fail on the closed connection, and nothing more is answered or logged as an error.
 * The listener is made once and added with `on`: a second STALLED finds the answer sent and ends the
 * connection, as an unheard one would.
 */
export function answerStalledBodies(answer: (req: Request, res: Response, reason: StallReason) => void): RequestStep {
  function onStalled(this: Request, reason: StallReason): void {
    const res = this.res as Response;
    if (res.headersSent) {
      this.socket.destroy();
      return;
    }
    answeredAsStalled.add(this);
    res.set('Connection', 'close');
    answer(this, res, reason);
  }
  return {
    arrived: (req) => {
      req.on(STALLED, onStalled);
    },
  };
}
