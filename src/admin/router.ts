import { Router, type RequestHandler } from 'express';
import { methodNotAllowed } from '../http/error-handler';
import type { ImportedCallsCounter } from '../operations/app-metrics';
import type { Store } from '../storage/store';
import type { AccountAdmin } from './accounts/account-admin';
import { accountRoutes } from './accounts/routes';
import { requireAdminToken } from './admin-token';
import { retentionRoutes } from './retention/routes';
import type { Retention } from '../retention/retention';
import type { CallRecordReader } from './calls/call-import';
import { importCallsRoute } from './calls/route';
import { sandboxRoutes, type Sandbox } from '../sandbox/sandbox';

/** What the admin API is made of, built once in the composition root. */
export interface AdminServices {
  readonly token: string;
  /** The admin API's rate-limit group. */
  readonly limit: RequestHandler;
  readonly accounts: AccountAdmin;
  /** Where imported calls go. */
  readonly store: Store;
  /** How an imported record's parsed line becomes a call (readCallRecord; a benchmark's stand-in takes its checks out). */
  readonly readCallRecord: CallRecordReader;
  /** Where the import's outcomes are counted (the app's metrics). */
  readonly importedCalls: ImportedCallsCounter;
  /** The server's clock and whether it moves, the failure scenarios, the call inspector's last survey calls. */
  readonly sandbox: Sandbox;
  /** RETENTION_MONTHS over the store and the server's clock. */
  readonly retention: Retention;
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
export function adminRouter({ token, limit, accounts, store, readCallRecord, importedCalls, sandbox, retention }: AdminServices): Router {
  const router = Router();
  router.use(answerInJson, limit, requireAdminToken(token));
  router.use(accountRoutes(accounts));
  router.use(sandboxRoutes(sandbox));
  router.use(retentionRoutes(retention));
  router.route('/calls').post(importCallsRoute(store, importedCalls, readCallRecord)).all(methodNotAllowed(['POST']));
  return router;
}
