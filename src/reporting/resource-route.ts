import type { RequestHandler } from 'express';
import type { Account } from '../domain/account';
import { send, type Representation } from '../http/representation';
import { authenticatedAccount } from './basic-auth/require-credentials';

/** A raw-data resource's three steps: its path read into a query, the report built, the report represented. */
export interface ResourceSteps<Query, Report> {
  readonly parse: (params: Record<string, string>, maxRangeDays: number) => Query;
  readonly report: (account: Account, query: Query) => Promise<Report>;
  readonly represent: (report: Report) => Representation;
}

/** The handler of a raw-data resource, behind Basic auth: a 400 for a bad path, else the report as JSON or XML. */
export function resourceRoute<Query, Report>(steps: ResourceSteps<Query, Report>, maxRangeDays: number): RequestHandler {
  return async (req, res) => {
    const query = steps.parse(req.params as Record<string, string>, maxRangeDays);
    const report = await steps.report(authenticatedAccount(res), query);
    send(req, res, 200, steps.represent(report));
  };
}
