/**
 * The time bench:scaling takes to drop the oldest month of calls: what retention (RETENTION_MONTHS, POST
 * /admin/retention, `ivr-reporting retention`) runs, the store's dropRawCallsBefore with the second month's
 * first instant as the cut-off, on the compiled store as the server runs it: the month's partition counted
 * and dropped, the cut-off recorded, in one transaction.
 */
import type * as LoggerModule from '../src/logger';
import type * as PostgresStoreModule from '../src/storage/postgres/postgres-store';
import { compiled } from './compiled';
import type { ScalingPlan } from './scaling-records';

export interface DroppedMonth {
  readonly months: string;
  readonly calls: number;
  readonly seconds: number;
}

export async function dropOldestMonth(databaseUrl: string, plan: ScalingPlan): Promise<DroppedMonth> {
  const { openPostgresStore } = await compiled<typeof PostgresStoreModule>('storage/postgres/postgres-store');
  const { createLogger } = await compiled<typeof LoggerModule>('logger');
  const store = await openPostgresStore(databaseUrl, createLogger('silent'), 60);
  try {
    const cutoff = new Date(plan.from);
    cutoff.setUTCMonth(cutoff.getUTCMonth() + 1);
    const began = performance.now();
    const parts = await store.calls.dropRawCallsBefore(cutoff.getTime(), false);
    const seconds = (performance.now() - began) / 1000;
    return {
      months: parts.map((part) => (part.firstMonth === undefined ? `up to ${part.lastMonth}` : part.lastMonth)).join(', '),
      calls: parts.reduce((sum, part) => sum + part.calls, 0),
      seconds,
    };
  } finally {
    await store.close();
  }
}
