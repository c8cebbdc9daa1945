/**
 * The report latencies of bench:scaling: the event tracker's reports (a day, a week, a month and a year,
 * by day, week or month, on one number or ALL of an account's 20), each sent by wrk (bench/wrk.ts: one
 * thread pinned to core 1) in turn over REPORT_ACCOUNTS accounts spread over all of them, with their own
 * temporary credentials, to a compiled server with REPORT_CACHE_BYTES=0 so that every request reads the
 * database; once with every read on the primary, once with DATABASE_READ_URL on the replica.
 */
import { startServerProcess, stopIfRunning } from '../test/support/server-process';
import type { ScalingCluster } from './scaling-cluster';
import { committedTransactions } from './scaling-database';
import { ACCOUNT_PASSWORD, ACCOUNT_TOOL, accountLogin, phoneOf, type ScalingPlan } from './scaling-records';
import { prepareLoad, runWrk, type WrkResult } from './wrk';

export type ReadTarget = 'primary' | 'replica';

export interface ReportLatency {
  readonly report: string;
  readonly target: ReadTarget;
  readonly result: WrkResult;
}

export interface ServerEnvironment {
  readonly [name: string]: string;
}

const REPORT_ACCOUNTS = 50;
/** Requests in flight: a few dashboards at once, not a queue long enough to measure the queue. */
const CONNECTIONS = 10;
const DAY_MS = 86_400_000;
const WARM_UP_SECONDS = 3;

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');

/** The reports, over the plan's last days: [name, first day, last day, period, one number or ALL]. */
function reports(plan: ScalingPlan): [string, number, number, 'day' | 'week' | 'month', 'one' | 'ALL'][] {
  const last = plan.to - DAY_MS;
  const lastMonth = new Date(plan.to);
  lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
  const lastYear = new Date(plan.to);
  lastYear.setUTCFullYear(lastYear.getUTCFullYear() - 1);
  return [
    ['a day by day, one number', last, last, 'day', 'one'],
    ['a week by day, ALL', last - 6 * DAY_MS, last, 'day', 'ALL'],
    ['a month by week, one number', lastMonth.getTime(), last, 'week', 'one'],
    ['a month by day, ALL', lastMonth.getTime(), last, 'day', 'ALL'],
    ['a year by month, ALL', lastYear.getTime(), last, 'month', 'ALL'],
    ['a year by day, ALL', lastYear.getTime(), last, 'day', 'ALL'],
  ];
}

async function credentials(url: string, account: number): Promise<string> {
  const response = await fetch(`${url}/api/auth`, {
    method: 'POST',
    body: new URLSearchParams({ tool: ACCOUNT_TOOL, login: accountLogin(account), password: ACCOUNT_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`POST /api/auth answered ${response.status}: ${await response.text()}`);
  const { login, password } = (await response.json()) as { login: string; password: string };
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/**
 * Every report through a server started with `environment` (and DATABASE_READ_URL on the replica for the
 * replica's run); how many transactions each database committed meanwhile, to show where the reads went and
 * what a report costs the primary when its reads are on the replica.
 */
export async function measureReports(
  cluster: ScalingCluster,
  plan: ScalingPlan,
  environment: ServerEnvironment,
  target: ReadTarget,
  seconds: number,
): Promise<{ latencies: ReportLatency[]; transactions: Record<ReadTarget, number>; requests: number }> {
  const server = startServerProcess({ ...environment, REPORT_CACHE_BYTES: '0', ...(target === 'replica' ? { DATABASE_READ_URL: cluster.replicaUrl } : {}) });
  try {
    const url = await server.listening();
    const accounts = Array.from({ length: Math.min(REPORT_ACCOUNTS, plan.accounts) }, (_, index) => Math.floor((index * plan.accounts) / Math.min(REPORT_ACCOUNTS, plan.accounts)));
    const authorizations = await Promise.all(accounts.map((account) => credentials(url, account)));
    const loads = reports(plan).map(([report, first, last, period, scope]) => {
      const rotate = accounts.map((account, index) => ({
        path: `/api/events/${stamp(first)}/${stamp(last)}/${period}/${scope === 'ALL' ? 'ALL' : phoneOf(account, index % 20)}`,
        headers: { Authorization: authorizations[index] as string },
      }));
      return { report, load: prepareLoad({ url, rotate }, CONNECTIONS) };
    });
    // Every report once before any is measured, so that the first is not the one that reads the pages into memory.
    for (const { load } of loads) await runWrk(load, WARM_UP_SECONDS);
    const primaryBefore = await committedTransactions(cluster, 'primary');
    const replicaBefore = await committedTransactions(cluster, 'replica');
    const latencies: ReportLatency[] = [];
    for (const { report, load } of loads) {
      const result = await runWrk(load, seconds);
      if (result.invalid !== undefined) throw new Error(`${report} on the ${target}: ${result.invalid}`);
      latencies.push({ report, target, result });
    }
    return {
      latencies,
      transactions: {
        primary: (await committedTransactions(cluster, 'primary')) - primaryBefore,
        replica: (await committedTransactions(cluster, 'replica')) - replicaBefore,
      },
      requests: latencies.reduce((sum, { result }) => sum + result.requests, 0),
    };
  } finally {
    await stopIfRunning(server, 'SIGTERM');
  }
}
