import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import type { Config } from './config/config';
import { errorHandler, notFound } from './http/error-handler';
import { reportingRouter } from './reporting/router';
import type { Store } from './storage/store';
import type { Clock } from './time/clock';

export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The one Express app: the reporting API under /api, then 404 and the error handler. */
export function createApp(deps: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const id = randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
    }),
  );
  app.use('/api', reportingRouter(deps));
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
