import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A signal that aborts when the request's client goes away before its answer is sent: work queued for
 * it (a password hash in line) is then dropped before it starts, instead of done for no one.
 */
export function clientGoneSignal(res: ServerResponse<IncomingMessage>): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the connection before the answer'));
  });
  return controller.signal;
}
