import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { errors } from '../errors/catalogue';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import { authenticatedAccount } from '../accounts/authenticated-account';
import { AlignedWindowStore } from './aligned-window-store';
import type { RateLimitSettings } from './settings';

export interface RateLimitGroups {
  /** POST /api/auth: counted per client address, successful or not. */
  readonly authentication: RequestHandler;
  /** Every raw-data resource together: counted per authenticated account. */
  readonly data: RequestHandler;
  /**
   * The requests under /api/ that cannot be tied to an account (specification.md §2.7: the headers are on all API
   * requests), each in a window of its own per client address, with the limit of the group it would be
   * in: another method on /api/auth in the authentication group's; a data resource without credentials
   * that work, another method on one, or an unknown path under /api/ in the data group's.
   */
  readonly unidentifiedAuthentication: RequestHandler;
  readonly unidentifiedData: RequestHandler;
}

interface GroupDefinition {
  readonly name: string;
  readonly limit: number;
  readonly key: (req: Request, res: Response) => string;
  /**
   * When the counters cannot be reached (Redis or PostgreSQL down): true lets requests through
   * uncounted, false answers 500. See docs/deployment.md for which group does which and why.
   */
  readonly failOpen: boolean;
}

/**
 * One limit group: X-RateLimit-Limit, -Remaining and -Reset (the Unix second at which the aligned window
 * ends) on every response it sees, and 429 with Retry-After through the error catalogue once the
 * window's limit is spent.
 */
function limitGroup(
  { store, clock, logger, refusals }: LimitDependencies,
  windowSeconds: number,
  { name, limit, key, failOpen }: GroupDefinition,
): RequestHandler {
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
    handler: (_req, _res, next) => {
      refusals.refused(name);
      next(errors.rateLimited());
    },
    // singleCount keeps every request in a WeakMap to catch one counted twice by a store, an allocation on
    // every request of every group; rate-limits.test.ts checks the counts themselves.
    validate: { trustProxy: false, xForwardedForHeader: false, singleCount: false },
    passOnStoreError: failOpen,
    logger: {
      error: (error, message) => logger.error({ err: error, limitGroup: name }, message ?? 'rate limit counters failed'),
      warn: (error, message) => logger.warn({ err: error, limitGroup: name }, message ?? 'rate limit warning'),
    },
  });
}

const byClientAddress = (req: Request): string => ipKeyGenerator(req.ip ?? 'unknown');

/** Where refusals are counted, by group name (the app's metrics). */
export interface RateLimitRefusals {
  refused(group: string): void;
}

export interface LimitDependencies {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly refusals: RateLimitRefusals;
}

/**
 * The two limit groups of specification.md §2.7, and the windows of their requests that no account can be named for.
 * The authentication group fails closed: it is what makes password guessing slow. The data group fails
 * open: its callers already proved who they are, and reports should not stop because the shared counters
 * are away. The unidentified windows fail open too: what they count is refused anyway.
 */
export function rateLimitGroups(dependencies: LimitDependencies, settings: RateLimitSettings): RateLimitGroups {
  const group = (definition: GroupDefinition) => limitGroup(dependencies, settings.windowSeconds, definition);
  const unidentified = (name: string, limit: number) =>
    group({ name: `${name}-unidentified`, limit, key: byClientAddress, failOpen: true });
  return {
    authentication: group({ name: 'authentication', limit: settings.auth, key: byClientAddress, failOpen: false }),
    data: group({ name: 'data', limit: settings.data, key: (_req, res) => authenticatedAccount(res).id, failOpen: true }),
    unidentifiedAuthentication: unidentified('authentication', settings.auth),
    unidentifiedData: unidentified('data', settings.data),
  };
}

/**
 * The admin API's own group (ADMIN_RATE_LIMIT): every /admin request, per client address, token or not.
 * Fails closed, since it slows down guessing the admin token.
 */
export function adminRateLimit(dependencies: LimitDependencies, settings: RateLimitSettings): RequestHandler {
  return limitGroup(dependencies, settings.windowSeconds, { name: 'admin', limit: settings.admin, key: byClientAddress, failOpen: false });
}

/**
 * The survey web service's group (SURVEY_RATE_LIMIT): svcEval calls, SOAP and REST, per client address.
 * Fails open: a survey in progress should not fault because the shared counters are away.
 */
export function surveyRateLimit(dependencies: LimitDependencies, settings: RateLimitSettings): RequestHandler {
  return limitGroup(dependencies, settings.windowSeconds, { name: 'survey', limit: settings.survey, key: byClientAddress, failOpen: true });
}
