import type { RequestHandler } from 'express';
import type { Clock } from '../../time/clock';

/**
 * Every answer's Date header from the sandbox's clock: a client (the dashboard's "today" among them)
 * then reads the server's time from the answers themselves. Set as the head is written, since
 * express-rate-limit sets the system's time in Date beside its X-RateLimit-Reset.
 */
export function clockDateHeader(clock: Clock): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
    res.writeHead = ((...args: unknown[]) => {
      res.setHeader('Date', new Date(clock.now()).toUTCString());
      return writeHead(...args);
    }) as typeof res.writeHead;
    next();
  };
}
