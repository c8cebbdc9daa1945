import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STALLED, type StallReason } from './stalled-body';

/** The least rate a request body must keep: `bytesPerSecond` on average over each window of `windowSeconds`. */
export interface MinimumBodyRate {
  readonly bytesPerSecond: number;
  readonly windowSeconds: number;
}

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
 * body the app no longer reads (it answered early), are left alone. A rate of 0 turns the check off.
 *
 * One timer for the whole server, running only while bodies arrive, looks at them all each window: a
 * timer per request would be set and cleared on every svcEval call, whose small body is rarely whole
 * when its request begins.
 */
export function enforceMinimumBodyRate(server: Server, { bytesPerSecond, windowSeconds }: MinimumBodyRate): void {
  if (bytesPerSecond === 0) return;
  const windowMs = windowSeconds * 1000;
  const leastPerWindow = bytesPerSecond * windowSeconds;
  const reason: StallReason = { kind: 'slow', bytesPerSecond, windowSeconds };
  const arriving = new Map<IncomingMessage, Window>();
  let sweep: NodeJS.Timeout | undefined;

  function check(): void {
    const now = performance.now();
    for (const [req, window] of arriving) {
      if (req.complete || window.res.headersSent) {
        arriving.delete(req);
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
      clearInterval(sweep);
      sweep = undefined;
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Node emits 'request' before it reads the end of any message, a GET's too: without Content-Length or
    // Transfer-Encoding a request has no body (RFC 9112, 6.3), and watching it cost each report a map
    // entry and a 'close' listener: 3% of a kept report's CPU on Node 24; 0.89 of the CPU per request
    // without them (docs/performance-costs.md, "The fixed cost of a request on Node 24").
    if (req.complete || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) return;
    arriving.set(req, { res, readBefore: req.socket.bytesRead, startedAt: performance.now() });
    req.once('close', () => arriving.delete(req));
    if (sweep === undefined) {
      sweep = setInterval(check, windowMs);
      // The sweep never keeps the process alive.
      sweep.unref();
    }
  });
}
