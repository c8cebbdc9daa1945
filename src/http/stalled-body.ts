import type { Request, RequestHandler, Response } from 'express';

/** What server.ts emits on a request whose body stopped arriving for the idle timeout (see `listen`). */
export const STALLED = 'stalled';

const answeredAsStalled = new WeakSet<Request>();

/** Whether the request was answered because its body stalled: a later failure to read the body is expected. */
export function wasAnsweredAsStalled(req: Request): boolean {
  return answeredAsStalled.has(req);
}

/**
 * Gives a request whose body stopped arriving its answer (`answer`: the API's error body, or the survey
 * service's SOAP fault) with `Connection: close`, so that the connection ends with it; the readers of
 * the body then fail on the closed connection, and nothing more is answered or logged as an error.
 */
export function answerStalledBodies(answer: (req: Request, res: Response) => void): RequestHandler {
  return (req, res, next) => {
    req.once(STALLED, () => {
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      answeredAsStalled.add(req);
      res.set('Connection', 'close');
      answer(req, res);
    });
    next();
  };
}
