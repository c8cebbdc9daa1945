import type { RequestHandler } from 'express';

/** GET /healthz: the process is alive and its event loop turns. Checks nothing else, so a restart cannot fix what it reports. */
export function liveness(): RequestHandler {
  return (_req, res) => {
    res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' });
  };
}
