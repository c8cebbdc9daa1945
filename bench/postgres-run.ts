/**
 * Runs bench/postgres.ts's measurePostgres in a process of its own for bench/postgres-figures.ts and
 * prints one JSON line (printResult): the result, or why there is none.
 */
import { measurePostgres } from './postgres';
import { printResult } from './processes';
import { settings } from './settings';

async function outcome(): Promise<unknown> {
  if (settings.databaseUrl === undefined) return { notMeasured: 'BENCH_DATABASE_URL is not set (a PostgreSQL server, fsync on, on which the bench may create a database)' };
  return measurePostgres({
    databaseUrl: settings.databaseUrl,
    rounds: settings.runs,
    importRecords: settings.importRecords,
    queryDays: settings.postgresQueryDays,
    requests: settings.queryRequests,
    timeoutSeconds: Number(process.argv[2] ?? settings.timeoutSeconds),
    progress: (line) => process.stderr.write(`${line}\n`),
  });
}

outcome().then(printResult, (error: unknown) => printResult({ notMeasured: `bench/postgres.ts failed: ${String(error)}` }));
