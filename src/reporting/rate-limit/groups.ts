import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { errors } from '../../errors/catalogue';
import type { Store } from '../../storage/store';
import type { Clock } from '../../time/clock';
import { authenticatedAccount } from '../basic-auth/require-credentials';
import { AlignedWindowStore } from './aligned-window-store';

export interface RateLimitSettings {
  readonly authLimit: number;
  readonly dataLimit: number;
  readonly windowSeconds: number;
}

export interface RateLimitGroups {
  /** POST /api/auth: counted per client address, successful or not. */
  readonly authentication: RequestHandler;
  /** Every raw-data resource together: counted per authenticated account. */
  readonly data: RequestHandler;
}

interface GroupDefinition {
  readonly name: string;
  readonly limit: number;
  readonly key: (req: Request, res: Response) => string;
}

/**
 * The two limit groups of section 8. Each sends X-RateLimit-Limit, -Remaining and -Reset (the Unix
 * second at which the aligned window ends) on every response it sees, and 429 with Retry-After through
 * the error catalogue once the window's limit is spent.
 */
export function rateLimitGroups(store: Store, clock: Clock, settings: RateLimitSettings): RateLimitGroups {
  const windowMs = settings.windowSeconds * 1000;

  const group = ({ name, limit, key }: GroupDefinition): RequestHandler =>
    rateLimit({
      windowMs,
      limit,
      legacyHeaders: true,
      standardHeaders: false,
      store: new AlignedWindowStore(store.rateLimits, clock, windowMs, `${name}:`),
      keyGenerator: key,
      retryAfter: (req) => {
        const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
        return Math.max(1, Math.ceil(((resetTime?.getTime() ?? clock.now()) - clock.now()) / 1000));
      },
      handler: (_req, _res, next) => next(errors.rateLimited()),
      validate: { trustProxy: false, xForwardedForHeader: false },
    });

  return {
    authentication: group({
      name: 'authentication',
      limit: settings.authLimit,
      key: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    }),
    data: group({
      name: 'data',
      limit: settings.dataLimit,
      key: (_req, res) => authenticatedAccount(res).id,
    }),
  };
}
