/**
 * Rows 7 and 8 of docs/performance.md: import into PostgreSQL with fsync on, and the one-year daily
 * query's p50 on PostgreSQL against memory, each with pieces of its cost taken out in turn, measured by
 * bench/postgres.ts (run by bench/postgres-run.ts in a process of its own). Without BENCH_DATABASE_URL or
 * that module, the reason they were not measured.
 */
import { z } from 'zod';
import { runJsonProcess } from './processes';
import type { Log } from './standalone';

const comparisonSchema = z.object({ measured: z.number(), baseline: z.number(), ratio: z.number() });
/** A piece taken out: against the baseline, and the app with it against the app without it. */
const pieceOutSchema = z.object({ against: comparisonSchema, share: comparisonSchema });

const resultSchema = z.object({
  fsync: z.string(),
  importV1: comparisonSchema,
  importV2: comparisonSchema,
  importV2Without: z.record(z.string(), pieceOutSchema),
  queryCalls: z.number(),
  postgresQueryP50Ms: z.number(),
  memoryQueryP50Ms: z.number(),
  queryRatio: z.number(),
  queryWithout: z.record(z.string(), pieceOutSchema),
});

export type PostgresFigures = z.infer<typeof resultSchema>;

export type PostgresOutcome = { readonly figures: PostgresFigures } | { readonly notMeasured: string };

const outcomeSchema = z.union([z.object({ notMeasured: z.string() }), resultSchema]);

export async function measurePostgresFigures(log: Log, timeoutSeconds: number): Promise<PostgresOutcome> {
  log('PostgreSQL figures (bench/postgres.ts)');
  const parsed = outcomeSchema.safeParse(await runJsonProcess<unknown>('bench/postgres-run.ts', { args: [String(Math.floor(timeoutSeconds))] }));
  if (!parsed.success) return { notMeasured: `bench/postgres.ts answered in another shape than expected: ${parsed.error.message}` };
  return 'notMeasured' in parsed.data ? { notMeasured: parsed.data.notMeasured } : { figures: parsed.data };
}
