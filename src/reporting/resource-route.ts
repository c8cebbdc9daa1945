import type { Request, Response } from 'express';
import type { Account } from '../accounts/account';
import { encodeIn, negotiatedFormat, type Format, type Representation } from '../http/representation';
import type { CallReads, PhoneScope, ReportBasis, Store } from '../storage/store';
import type { QueryBounds, RangeQuery } from './query/params';
import type { WeekStart } from './query/periods';
import { askedPhone, phoneScope } from './query/phone-scope';
import { namesEntity } from './report-cache/if-none-match';
import { finishedReport, type FinishedReport, type ReportCache } from './report-cache/report-cache';

/** A raw-data resource's three steps: its path read into a query, the report built, the report represented. */
export interface ResourceSteps<Query extends RangeQuery, Report> {
  /** Names the resource in the keys of kept reports. */
  readonly name: string;
  readonly parse: (params: Record<string, string>, bounds: QueryBounds) => Query;
  /** `scope`: the numbers in scope, whose ownership is checked on every request; `calls`: where it reads them. */
  readonly report: (account: Account, query: Query, scope: PhoneScope, calls: CallReads) => Promise<Report>;
  readonly represent: (report: Report) => Representation;
}

export interface ResourceContext {
  readonly store: Store;
  /** Undefined when REPORT_CACHE_BYTES is 0. */
  readonly reports: ReportCache | undefined;
  readonly maxRangeDays: number;
  readonly weekStart: WeekStart;
}

async function buildReport<Query extends RangeQuery, Report>(
  steps: ResourceSteps<Query, Report>,
  account: Account,
  query: Query,
  scope: PhoneScope,
  calls: CallReads,
  format: Format,
): Promise<FinishedReport> {
  const { contentType, bytes } = encodeIn(format, steps.represent(await steps.report(account, query, scope, calls)));
  return finishedReport(bytes, contentType);
}

/** Where a report reads its calls: the store, or its replicas once the report knows what its account has seen. */
function readsOf(store: Store, account: Account, basis: ReportBasis | undefined): CallReads {
  return store.replicas === undefined || basis === undefined ? store.calls : store.replicas.readingAfter({ accountId: account.id, dataVersion: basis.dataVersion });
}

/** Answers a raw-data request of an account whose credentials and limit were checked. */
export type ResourceAnswer = (req: Request, res: Response, account: Account) => Promise<void>;

/**
 * The answer of a raw-data resource: a 400 for a bad path or a number not on the account, else the
 * report as JSON or XML. A report is built once per account data version, query and format and then
 * sent as kept, with an entity tag; `If-None-Match` gets a 304. The data version and the number's
 * ownership are one read of the store; without kept reports, a report on every number needs neither,
 * unless the store has replicas: they answer only with data at least as new as that version.
 */
export function resourceRoute<Query extends RangeQuery, Report>(
  steps: ResourceSteps<Query, Report>,
  { store, reports, maxRangeDays, weekStart }: ResourceContext,
): ResourceAnswer {
  return async (req, res, account) => {
    const query = steps.parse(req.params as Record<string, string>, { maxRangeDays, weekStart, timeZone: account.timeZone });
    const phone = askedPhone(query.phone);
    const needsBasis = reports !== undefined || phone !== undefined || store.replicas !== undefined;
    const basis = needsBasis ? await store.accounts.reportBasis(account.id, phone) : undefined;
    const scope = phoneScope(account, query.phone, basis?.ownsPhone ?? true);
    const format = negotiatedFormat(req);
    let report: FinishedReport;
    if (reports === undefined || basis === undefined) report = await buildReport(steps, account, query, scope, readsOf(store, account, basis), format);
    else {
      const key = `${account.id}\u0000${basis.dataVersion}\u0000${steps.name}\u0000${JSON.stringify(query)}\u0000${format}`;
      const kept = reports.get(key);
      report = kept ?? (await buildReport(steps, account, query, scope, readsOf(store, account, basis), format));
      if (kept === undefined) reports.set(key, report);
    }
    // The kept headers and bytes go straight to Node: nothing before this handler sets the status or Vary,
    // the content type is final and the entity tag kept, where Express's send would check and parse them
    // again on every request (and answer If-None-Match its own way, see if-none-match.ts).
    res.setHeader('Vary', 'Accept');
    res.setHeader('ETag', report.etag);
    if (namesEntity(req.headers['if-none-match'], report.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', report.contentType);
    res.setHeader('Content-Length', report.body.length);
    res.end(req.method === 'HEAD' ? undefined : report.body);
  };
}
