/**
 * Runs bench/postgres.ts (written separately) in a process of its own for bench/postgres-figures.ts: loads
 * it by a path TypeScript does not resolve, so that the harness builds and runs while that module is
 * absent or still changing, calls its measurePostgres and prints one JSON line: the result, or why there is none.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { settings } from './settings';

/** What bench/postgres.ts is expected to export. */
type MeasurePostgres = (options: {
  databaseUrl: string;
  rounds: number;
  importRecords: number;
  queryDays: number;
  requests: number;
  timeoutSeconds: number;
  progress: (line: string) => void;
}) => Promise<unknown>;

const MODULE = path.join(__dirname, 'postgres.ts');

async function outcome(): Promise<unknown> {
  if (!existsSync(MODULE)) return { notMeasured: 'bench/postgres.ts does not exist yet' };
  if (settings.databaseUrl === undefined) return { notMeasured: 'BENCH_DATABASE_URL is not set (a PostgreSQL server, fsync on, on which the bench may create a database)' };
  const exported = ((await import(MODULE)) as { measurePostgres?: unknown }).measurePostgres;
  if (typeof exported !== 'function') return { notMeasured: 'bench/postgres.ts does not export a function measurePostgres' };
  return (exported as MeasurePostgres)({
    databaseUrl: settings.databaseUrl,
    rounds: settings.runs,
    importRecords: settings.importRecords,
    queryDays: settings.postgresQueryDays,
    requests: settings.queryRequests,
    timeoutSeconds: Number(process.argv[2] ?? settings.timeoutSeconds),
    progress: (line) => process.stderr.write(`${line}\n`),
  });
}

outcome().then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => process.stdout.write(`${JSON.stringify({ notMeasured: `bench/postgres.ts failed: ${String(error)}` })}\n`),
);
