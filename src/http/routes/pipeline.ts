import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * A route's steps as one handler: each step runs once the one before called `next()`, as a route's
 * handlers do in Express, but without a router layer per step. A step that calls `next(error)`, throws, or
 * returns a promise that rejects ends the request's way there: the error goes to `failed`, the route's
 * own answer of a failure, or else on to the app's error handlers. After the last step, `next()` goes on.
 */
export function pipeline(steps: readonly RequestHandler[], failed?: ErrorRequestHandler): RequestHandler {
  return (req, res, next) => {
    const fail = (error: unknown): void => {
      if (failed === undefined) next(error);
      else failed(error, req, res, next);
    };
    let index = 0;
    const advance = (error?: unknown): void => {
      if (error !== undefined) {
        fail(error);
        return;
      }
      const step = steps[index];
      index += 1;
      if (step === undefined) {
        next();
        return;
      }
      try {
        const done: unknown = step(req, res, advance);
        if (done instanceof Promise) done.catch(fail);
      } catch (error) {
        fail(error);
      }
    };
    advance();
  };
}
