/**
 * npm run bench:scenarios: what the sandbox's scenarios cost a request with the cap full. Every auth, data
 * and survey request is matched against the active scenarios, at most SANDBOX_MAX_SCENARIOS of them: the
 * rate of a data request (the 8-day events report of one number, answered from the kept report) and of
 * POST /api/auth to an app whose store holds that many active scenarios of the request's target, none
 * matching it, against the same app with none; on the memory store, and on PostgreSQL when
 * BENCH_DATABASE_URL names a server on which it may create databases (three, dropped at the end). In the
 * same rounds, the data request to the app with SANDBOX_SCENARIOS=false, which never asks the store. The
 * apps (bench/scenario-servers.ts) and the generator's ceiling each run in a process of their own pinned to
 * core 0, wrk on core 1 (bench/wrk.ts, bench/load.ts); the memory store's matching alone, without HTTP, in a
 * process of its own too (bench/scenario-matching.ts).
 */
import { answersFile, bodyBytes, captureAnswer, type Answer } from './answers';
import { alternateRounds, checkGenerator, checkLine, type GeneratorCheck, type Measured } from './load';
import { createBenchDatabase, type BenchDatabase } from './postgres';
import { logFilePath, logWritten, runJsonProcess, startServerProcess } from './processes';
import { compare, median, type Comparison } from './rounds';
import { MATCHES_PER_ROUND } from './scenario-matching';
import { AUTH_BODY, DATA_PATH, SCENARIO_DATABASES, type DataTarget, type ScenarioDatabases, type ScenarioServers, type StoreApps } from './scenario-servers';
import { settings } from './settings';
import { runStandalone, type Log } from './standalone';
import { ensureLoadTools, prepareLoad, SERVER_CORE } from './wrk';

/** Connections of the login load: a login is one scrypt hash, one at a time (PASSWORD_HASH_CONCURRENCY=1), so more would only wait in its line. */
export const AUTH_CONNECTIONS = 4;
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

export type StoreName = 'memory' | 'postgresql';

export interface StoreFigures {
  /** The data request with the cap full (measured) against no scenario (baseline). */
  readonly data: Comparison;
  /** The data request with no scenario (measured) against scenarios off (baseline): asking the store at all. */
  readonly dataAsking: Comparison;
  /** Median of the rounds' 1/rate with the cap full less 1/rate with none, in microseconds. */
  readonly dataAddedMicroseconds: number;
  readonly auth: Comparison;
}

export interface ScenarioFigures {
  readonly mostActive: number;
  /** Microseconds of the memory store's matching alone, with the cap full (measured) against none (baseline). */
  readonly memoryMatching: Comparison;
  readonly calls: number;
  readonly dataBytes: number;
  readonly memory: StoreFigures;
  /** PostgreSQL's figures, or why there are none. */
  readonly postgresql: { readonly figures: StoreFigures; readonly fsync: string } | { readonly notMeasured: string };
  readonly checks: readonly GeneratorCheck[];
  readonly leftOut: readonly string[];
}

/** The answer must be the same with the cap full: a scenario that matched would have changed it. */
function sameAnswer(name: string, full: Answer, none: Answer): void {
  if (full.body !== none.body || 'x-sandbox-scenario' in full.headers || 'x-sandbox-scenarios-active' in full.headers) {
    throw new Error(`${name}: the app with the cap full answered otherwise than the app with no scenario: a scenario matched`);
  }
}

export async function measureScenarioMatching(log: Log): Promise<ScenarioFigures> {
  await ensureLoadTools(log);
  const databases: BenchDatabase[] = [];
  const stopping: { stop(): Promise<void> }[] = [];
  try {
    let urls: ScenarioDatabases | undefined;
    if (settings.databaseUrl !== undefined) {
      const made: Partial<Record<keyof ScenarioDatabases, string>> = {};
      for (const name of SCENARIO_DATABASES) {
        const database = await createBenchDatabase(settings.databaseUrl);
        databases.push(database);
        made[name] = database.url;
      }
      urls = made as ScenarioDatabases;
    }
    const appLog = logFilePath('scenarios-app');
    const app = await startServerProcess<ScenarioServers>('bench/scenario-servers.ts', {
      args: urls === undefined ? [] : [JSON.stringify(urls)],
      core: SERVER_CORE,
      logFile: appLog,
    });
    stopping.push(app);
    const { memory, postgresql, mostActive } = app.info;
    const get = (target: DataTarget) => ({ url: target.url + DATA_PATH, headers: { authorization: target.authorization } });
    const post = (url: string) => ({ url: `${url}/api/auth`, headers: FORM, body: AUTH_BODY });
    const dataAnswer = await captureAnswer(get(memory.data.none).url, get(memory.data.none));
    const authAnswer = await captureAnswer(post(memory.auth.none).url, post(memory.auth.none));
    for (const [name, apps] of [['memory', memory], ['postgresql', postgresql]] as const) {
      if (apps === undefined) continue;
      sameAnswer(`${name}, data`, await captureAnswer(get(apps.data.full).url, get(apps.data.full)), dataAnswer);
      const fullAuth = await captureAnswer(post(apps.auth.full).url, post(apps.auth.full));
      if ('x-sandbox-scenario' in fullAuth.headers || 'x-sandbox-scenarios-active' in fullAuth.headers) throw new Error(`${name}, auth: a scenario matched`);
    }
    const ceiling = await startServerProcess<{ url: string }>('bench/ceiling-server.ts', { args: [answersFile([dataAnswer, authAnswer])], core: SERVER_CORE });
    stopping.push(ceiling);
    const data = (target: DataTarget): Measured => ({ load: prepareLoad(get(target), settings.connections) });
    const auth = (url: string): Measured => ({ load: prepareLoad(post(url), AUTH_CONNECTIONS) });
    const storeTargets = (name: StoreName, apps: StoreApps | undefined) =>
      apps === undefined
        ? {}
        : {
            [`${name} data, scenarios off`]: data(apps.data.off),
            [`${name} data, no scenario`]: data(apps.data.none),
            [`${name} data, cap full`]: data(apps.data.full),
          };
    const authTargets = (name: StoreName, apps: StoreApps | undefined) =>
      apps === undefined ? {} : { [`${name} auth, no scenario`]: auth(apps.auth.none), [`${name} auth, cap full`]: auth(apps.auth.full) };
    // Each app runs right after the one it is compared with: scenarios off, none, the cap full.
    const { rates, leftOut } = await alternateRounds<string>(
      {
        ...storeTargets('memory', memory),
        ...storeTargets('postgresql', postgresql),
        'data ceiling': data({ url: ceiling.info.url, authorization: memory.data.none.authorization }),
        ...authTargets('memory', memory),
        ...authTargets('postgresql', postgresql),
        'auth ceiling': auth(ceiling.info.url),
      },
      log,
    );
    log(logWritten(appLog));
    const ratesOf = (name: string) => rates[name] ?? [];
    const figures = (name: StoreName): StoreFigures => {
      const [full, none, off] = [ratesOf(`${name} data, cap full`), ratesOf(`${name} data, no scenario`), ratesOf(`${name} data, scenarios off`)];
      return {
        data: compare(full, none),
        dataAsking: compare(none, off),
        dataAddedMicroseconds: median(full.map((rate, round) => 1e6 / rate - 1e6 / (none[round] ?? Number.NaN))),
        auth: compare(ratesOf(`${name} auth, cap full`), ratesOf(`${name} auth, no scenario`)),
      };
    };
    const servers = (kind: 'data' | 'auth') => Object.fromEntries(Object.entries(rates).filter(([name]) => name.includes(` ${kind}, `)));
    return {
      mostActive,
      memoryMatching: await runJsonProcess<Comparison>('bench/scenario-matching.ts', { args: [String(mostActive)] }),
      calls: app.info.calls,
      dataBytes: bodyBytes(dataAnswer),
      memory: figures('memory'),
      postgresql:
        postgresql === undefined
          ? { notMeasured: 'BENCH_DATABASE_URL is not set (a PostgreSQL server on which the bench may create a database)' }
          : { figures: figures('postgresql'), fsync: (databases[0] as BenchDatabase).fsync },
      checks: [
        checkGenerator(`scenarios, 8 days one number (${bodyBytes(dataAnswer)} B)`, ratesOf('data ceiling'), servers('data')),
        checkGenerator(`scenarios, POST /api/auth (${bodyBytes(authAnswer)} B)`, ratesOf('auth ceiling'), servers('auth')),
      ],
      leftOut,
    };
  } finally {
    for (const process of stopping) await process.stop();
    for (const database of databases) await database.drop();
  }
}

function summary(figures: ScenarioFigures): string[] {
  const line = (label: string, figure: Comparison) =>
    `  ${label}: ${figure.measured.toFixed(0)} req/s against ${figure.baseline.toFixed(0)} req/s, ${figure.ratio.toFixed(2)}`;
  const store = (name: string, { data, dataAsking, dataAddedMicroseconds, auth }: StoreFigures) => [
    `${name}:`,
    line(`data request, ${figures.mostActive} scenarios active, none matching, vs none`, data),
    `    (1/rate with the cap full less 1/rate with none: ${dataAddedMicroseconds.toFixed(1)} µs a request)`,
    line('data request, no scenario, vs SANDBOX_SCENARIOS=false', dataAsking),
    line(`POST /api/auth, ${figures.mostActive} scenarios active, none matching, vs none`, auth),
  ];
  return [
    `${settings.runs} rounds of ${settings.seconds}s per target, wrk -t1 on core 1 (-c${settings.connections} data, -c${AUTH_CONNECTIONS} auth), servers on core 0, medians:`,
    `GET ${DATA_PATH} (${figures.dataBytes} B, kept report over ${figures.calls} calls)`,
    `memory store's matching alone (store.scenarios.fire, ${MATCHES_PER_ROUND} a round): ${figures.memoryMatching.measured.toFixed(2)} µs with ` +
      `${figures.mostActive} scenarios active, ${figures.memoryMatching.baseline.toFixed(2)} µs with none`,
    ...store('memory', figures.memory),
    ...('notMeasured' in figures.postgresql ? [`postgresql: not measured: ${figures.postgresql.notMeasured}`] : store(`postgresql (fsync ${figures.postgresql.fsync})`, figures.postgresql.figures)),
    ...figures.checks.map(checkLine),
    ...figures.leftOut.map((round) => `left out: ${round}`),
  ];
}

if (require.main === module) runStandalone('bench:scenarios', async (log) => summary(await measureScenarioMatching(log)));
