import type { Request, RequestHandler, Response } from 'express';

/** What the edge does to a request before any route sees it: sets it up, adds its listeners; never answers. */
export type RequestStep = (req: Request, res: Response) => void;

/**
 * The steps every request takes first (the request metrics, the access log, the stalled-body guard) as
 * one middleware: each layer of Express's router costs every request a match, a closure and its params,
 * so three layers that always match are one here.
 */
export function requestEdge(steps: readonly RequestStep[]): RequestHandler {
  return (req, res, next) => {
    for (const step of steps) step(req, res);
    next();
  };
}
