import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STALLED, type StallReason } from './stalled-body';

/** The least rate a request body must keep: `bytesPerSecond` on average over each window of `windowSeconds`. */
export interface MinimumBodyRate {
  readonly bytesPerSecond: number;
  readonly windowSeconds: number;
}

/** The clock and the timer of the sweep: the real ones, or a test's, which runs a sweep when it says. */
export interface BodyRateSweeps {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Runs `sweep` every `intervalMs` until the function it returns is called. */
  every(intervalMs: number, sweep: () => void): () => void;
}

const realSweeps: BodyRateSweeps = {
  now: () => performance.now(),
  every: (intervalMs, sweep) => {
    // The sweep never keeps the process alive.
    const timer = setInterval(sweep, intervalMs).unref();
    return () => clearInterval(timer);
  },
};

/** Where a body's current window began: the connection's byte count and the time; and its answer. */
interface Window {
  readonly res: ServerResponse;
  readBefore: number;
  startedAt: number;
}

/**
 * Cuts a request body that trickles: one that keeps sending a byte now and then is never idle, so the
 * idle timeout never ends it, yet holds a connection and a request for as long as its sender likes.
 * Each window of at least `windowSeconds` of the body's arrival must bring `bytesPerSecond` ×
 * `windowSeconds` bytes; one that does not is told (STALLED, `slow`), and the app answers it as a body
 * that stopped arriving, or, unheard, its connection is closed. A body that is in, and a request whose
 * body the app no longer reads (it answered early), are left alone. A body whose bytes wait for the app
 * (it has not begun reading, or it paused for its store, as an import does under load; Node then stops
 * reading the connection) is not the sender's delay: its window begins again. A rate of 0 turns the check off.
 *
 * One timer for the whole server, running only while bodies arrive, looks at them all each window: a
 * timer per request would be set and cleared on every svcEval call, whose small body is rarely whole
 * when its request begins.
 */
export function enforceMinimumBodyRate(server: Server, { bytesPerSecond, windowSeconds }: MinimumBodyRate, sweeps: BodyRateSweeps = realSweeps): void {
  if (bytesPerSecond === 0) return;
  const windowMs = windowSeconds * 1000;
  const leastPerWindow = bytesPerSecond * windowSeconds;
  const reason: StallReason = { kind: 'slow', bytesPerSecond, windowSeconds };
  const arriving = new Map<IncomingMessage, Window>();
  /** Stops the sweep; set while one runs. */
  let sweep: (() => void) | undefined;

  function check(): void {
    const now = sweeps.now();
    for (const [req, window] of arriving) {
      if (req.complete || window.res.headersSent) {
        arriving.delete(req);
      } else if (req.readableLength > 0) {
        // Bytes came that the app has not taken: it is the app that waits, not the sender.
        window.readBefore = req.socket.bytesRead;
        window.startedAt = now;
      } else if (now - window.startedAt >= windowMs) {
        const read = req.socket.bytesRead - window.readBefore;
        if (read >= leastPerWindow) {
          window.readBefore = req.socket.bytesRead;
          window.startedAt = now;
        } else {
          arriving.delete(req);
          if (!req.emit(STALLED, reason)) req.socket.destroy();
        }
      }
    }
    if (arriving.size === 0) {
      sweep?.();
      sweep = undefined;
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Node emits 'request' before it reads the end of any message, a GET's too: without Content-Length or
    // Transfer-Encoding a request has no body (RFC 9112, 6.3), and watching it would cost each report a
    // map entry and a 'close' listener for nothing (docs/performance-costs.md, "The fixed cost of a
    // request on Node 24").
    if (req.complete || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) return;
    arriving.set(req, { res, readBefore: req.socket.bytesRead, startedAt: sweeps.now() });
    req.once('close', () => arriving.delete(req));
    sweep ??= sweeps.every(windowMs, check);
  });
}
