import { Router, type RequestHandler } from 'express';
import type { Config } from '../config/config';
import { methodNotAllowed } from '../http/error-handler';
import { adminRateLimit } from '../reporting/rate-limit/groups';
import type { Logger } from 'pino';
import type { Store } from '../storage/store';
import type { Clock } from '../time/clock';
import { accountAdmin } from './accounts/account-admin';
import { accountRoutes } from './accounts/routes';
import { requireAdminToken } from './admin-token';
import { importCallsRoute } from './calls/route';

export interface AdminDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The admin API speaks only JSON. Its error bodies come from the app's one error handler, which
 * negotiates JSON or XML from Accept; pinning Accept here keeps them JSON whatever the client asked.
 */
const answerInJson: RequestHandler = (req, _res, next) => {
  req.headers.accept = 'application/json';
  next();
};

/** The admin API, mounted at /admin only when ADMIN_TOKEN is set. */
export function adminRouter({ config, store, clock, logger }: AdminDependencies, token: string): Router {
  const router = Router();
  router.use(
    answerInJson,
    adminRateLimit({ store, clock, logger }, { limit: config.adminRateLimit, windowSeconds: config.rateLimitWindowSeconds }),
    requireAdminToken(token),
  );
  router.use(accountRoutes(accountAdmin(store, config.defaultTimeZone)));
  router.route('/calls').post(importCallsRoute(store)).all(methodNotAllowed(['POST']));
  return router;
}
