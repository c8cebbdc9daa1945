/**
 * The pieces of a request's fixed cost a benchmark takes out, each by a stand-in of the interface the app
 * is built from (as tests put fakes in place), so that what a piece costs is measured rather than guessed:
 * the app with it against the app without it, in the same rounds.
 */
import type { Express, RequestHandler } from 'express';
import type { Account } from '../src/accounts/account';
import type { AppServices } from '../src/app';
import type { Store } from '../src/storage/store';
import type { serverModules } from './compiled';
import { uncheckedCallRecord } from './import-pieces';

export type Piece = 'access log lines' | 'request metrics' | 'data rate limit' | 'credential check' | 'survey rate limit' | 'record checks';

const passThrough: RequestHandler = (_req, _res, next) => next();

export interface Composition {
  readonly modules: Awaited<ReturnType<typeof serverModules>>;
  /** The environment the app is configured from (LOG_LEVEL among them). */
  readonly variables: Readonly<Record<string, string>>;
  readonly store: Store;
  /** The account a data request is taken to be from when the credential check is out. */
  readonly account?: Account;
}

/**
 * The app without `pieces`: no access line built or written (LOG_LEVEL=warn: the request id stays), no
 * request recorded in the metrics, a limit group that lets every request through uncounted (no count, no
 * headers), temporary credentials taken for the account without a lookup or a digest, imported records
 * taken as they are (bench/import-pieces.ts).
 */
export function appWithout({ modules, variables, store, account }: Composition, pieces: readonly Piece[]): Express {
  const { composeServices, createApp, createAppMetrics, loadConfig } = modules;
  const has = (piece: Piece) => !pieces.includes(piece);
  const config = loadConfig(has('access log lines') ? variables : { ...variables, LOG_LEVEL: 'warn' });
  const services: AppServices = composeServices(config, {
    store,
    ...(has('request metrics') ? {} : { metrics: { ...createAppMetrics(), requestFinished: () => undefined } }),
  });
  const { limits, credentials } = services.reporting;
  if (!has('credential check') && account === undefined) throw new Error('taking the credential check out needs the account');
  if (!has('record checks') && services.admin === undefined) throw new Error('taking the record checks out needs the admin API (ADMIN_TOKEN)');
  return createApp({
    ...services,
    admin: has('record checks') || services.admin === undefined ? services.admin : { ...services.admin, readCallRecord: uncheckedCallRecord },
    reporting: {
      ...services.reporting,
      limits: has('data rate limit') ? limits : { ...limits, data: passThrough },
      credentials: has('credential check') ? credentials : { ...credentials, verify: () => Promise.resolve(account) },
    },
    survey: has('survey rate limit') ? services.survey : { ...services.survey, limit: passThrough },
  });
}
