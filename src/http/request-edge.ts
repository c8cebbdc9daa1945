import type { Request, RequestHandler, Response } from 'express';

/** What the edge does with every request before any route sees it; a step never answers. */
export interface RequestStep {
  /** When the request arrives: set it up, add its listeners. */
  readonly arrived: (req: Request, res: Response) => void;
  /** When its answer is over: sent, or the client gone (the response's 'close', which comes once). */
  readonly closed?: (res: Response) => void;
}

/**
 * The steps every request takes first (the request metrics, the access log, the stalled-body guard) as
 * one middleware with one 'close' listener: each layer of Express's router costs every request a match,
 * a closure and its params, and each listener beyond a response's first an array of them.
 */
export function requestEdge(steps: readonly RequestStep[]): RequestHandler {
  const closing = steps.flatMap(({ closed }) => (closed === undefined ? [] : [closed]));
  function answerClosed(this: Response): void {
    for (const closed of closing) closed(this);
  }
  return (req, res, next) => {
    for (const step of steps) step.arrived(req, res);
    res.on('close', answerClosed);
    next();
  };
}
