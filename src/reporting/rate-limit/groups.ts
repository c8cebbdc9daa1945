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
 * One limit group: X-RateLimit-Limit, -Remaining and -Reset (the Unix second at which the aligned window
 * ends) on every response it sees, and 429 with Retry-After through the error catalogue once the
 * window's limit is spent.
 */
function limitGroup(store: Store, clock: Clock, windowSeconds: number, { name, limit, key }: GroupDefinition): RequestHandler {
  const windowMs = windowSeconds * 1000;
  return rateLimit({
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
}

const byClientAddress = (req: Request): string => ipKeyGenerator(req.ip ?? 'unknown');

/** The two limit groups of section 8. */
export function rateLimitGroups(store: Store, clock: Clock, settings: RateLimitSettings): RateLimitGroups {
  return {
    authentication: limitGroup(store, clock, settings.windowSeconds, {
      name: 'authentication',
      limit: settings.authLimit,
      key: byClientAddress,
    }),
    data: limitGroup(store, clock, settings.windowSeconds, {
      name: 'data',
      limit: settings.dataLimit,
      key: (_req, res) => authenticatedAccount(res).id,
    }),
  };
}

/** The admin API's own group (ADMIN_RATE_LIMIT): every /admin request, per client address, token or not. */
export function adminRateLimit(store: Store, clock: Clock, settings: { limit: number; windowSeconds: number }): RequestHandler {
  return limitGroup(store, clock, settings.windowSeconds, { name: 'admin', limit: settings.limit, key: byClientAddress });
}
