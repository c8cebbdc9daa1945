import type { RequestHandler } from 'express';
import type { Account } from '../accounts/account';
import { encodeIn, negotiatedFormat, type Format, type Representation } from '../http/representation/representation';
import type { PhoneScope, Store } from '../storage/store';
import { authenticatedAccount } from './basic-auth/require-credentials';
import type { RangeQuery } from './query/params';
import { phoneScope } from './query/phone-scope';
import { namesEntity } from './report-cache/if-none-match';
import { finishedReport, type FinishedReport, type ReportCache } from './report-cache/report-cache';

/** A raw-data resource's three steps: its path read into a query, the report built, the report represented. */
export interface ResourceSteps<Query extends RangeQuery, Report> {
  /** Names the resource in the keys of kept reports. */
  readonly name: string;
  readonly parse: (params: Record<string, string>, maxRangeDays: number) => Query;
  /** `scope`: the numbers in scope, whose ownership is checked on every request. */
  readonly report: (account: Account, query: Query, scope: PhoneScope) => Promise<Report>;
  readonly represent: (report: Report) => Representation;
}

export interface ResourceContext {
  readonly store: Store;
  /** Undefined when REPORT_CACHE_BYTES is 0. */
  readonly reports: ReportCache | undefined;
  readonly maxRangeDays: number;
}

async function buildReport<Query extends RangeQuery, Report>(
  steps: ResourceSteps<Query, Report>,
  account: Account,
  query: Query,
  scope: PhoneScope,
  format: Format,
): Promise<FinishedReport> {
  const { contentType, bytes } = encodeIn(format, steps.represent(await steps.report(account, query, scope)));
  return finishedReport(bytes, contentType);
}

/**
 * The handler of a raw-data resource, behind Basic auth and the limit group: a 400 for a bad path or a
 * number not on the account, else the report as JSON or XML. A report is built once per account data
 * version, query and format and then sent as kept, with an entity tag; `If-None-Match` gets a 304.
 */
export function resourceRoute<Query extends RangeQuery, Report>(
  steps: ResourceSteps<Query, Report>,
  { store, reports, maxRangeDays }: ResourceContext,
): RequestHandler {
  return async (req, res) => {
    const query = steps.parse(req.params as Record<string, string>, maxRangeDays);
    const account = authenticatedAccount(res);
    const scope = await phoneScope(store, account, query.phone);
    const format = negotiatedFormat(req);
    let report: FinishedReport;
    if (reports === undefined) report = await buildReport(steps, account, query, scope, format);
    else {
      const version = await store.accounts.dataVersion(account.id);
      const key = `${account.id}\u0000${version}\u0000${steps.name}\u0000${JSON.stringify(query)}\u0000${format}`;
      const kept = reports.get(key);
      report = kept ?? (await buildReport(steps, account, query, scope, format));
      if (kept === undefined) reports.set(key, report);
    }
    // The kept headers go straight to Node: nothing before this handler sets the status or Vary, and the
    // content type is final, where Express's helpers would check and parse them again on every request.
    // With the ETag set, Express's send computes no tag.
    res.setHeader('Vary', 'Accept');
    res.setHeader('ETag', report.etag);
    if (namesEntity(req.headers['if-none-match'], report.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', report.contentType);
    res.send(report.body);
  };
}
