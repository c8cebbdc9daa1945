import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STALLED, type StallReason } from './stalled-body';

/** The least rate a request body must keep: `bytesPerSecond` on average over each window of `windowSeconds`. */
export interface MinimumBodyRate {
  readonly bytesPerSecond: number;
  readonly windowSeconds: number;
}

/**
 * Cuts a request body that trickles: one that keeps sending a byte now and then is never idle, so the
 * idle timeout never ends it, yet holds a connection and a request for as long as its sender likes.
 * Each window of the body's arrival must bring `bytesPerSecond` × `windowSeconds` bytes; one that does
 * not is told (STALLED, `slow`), and the app answers it as a body that stopped arriving, or, unheard,
 * its connection is closed. A body that is in, and a request whose body the app no longer reads (it
 * answered early), are left alone. A rate of 0 turns the check off.
 */
export function enforceMinimumBodyRate(server: Server, { bytesPerSecond, windowSeconds }: MinimumBodyRate): void {
  if (bytesPerSecond === 0) return;
  const leastPerWindow = bytesPerSecond * windowSeconds;
  const reason: StallReason = { kind: 'slow', bytesPerSecond, windowSeconds };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return;
    const socket = req.socket;
    let readAtWindowStart = socket.bytesRead;
    const check = setInterval(() => {
      const read = socket.bytesRead - readAtWindowStart;
      readAtWindowStart = socket.bytesRead;
      if (req.complete || res.headersSent || read >= leastPerWindow) return;
      clearInterval(check);
      if (!req.emit(STALLED, reason)) socket.destroy();
    }, windowSeconds * 1000);
    // A check never keeps the process alive; the request's end, whichever way, stops it.
    check.unref();
    req.once('end', () => clearInterval(check));
    res.once('close', () => clearInterval(check));
  });
}
