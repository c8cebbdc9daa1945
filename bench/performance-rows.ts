/**
 * The rows of docs/performance.md: for each group of figures, how it is measured, the measurement (each
 * bench module's own function, whose servers run in child processes, on the pass's Node.js), and its
 * figures against their goals (some with a milestone on the way).
 */
import { measureAdminImport } from './admin-import';
import { measureEventTracker } from './events';
import type { GeneratorCheck } from './load';
import { measureLoginSlowdown } from './logins';
import { measureCallMemory } from './memory';
import { PEERS, peerName } from './peer-programs';
import { measurePeers, REQUEST_NAMES, REQUESTS, type PeerFigures, type PeerRequest } from './peers';
import { measurePostgresFigures } from './postgres-figures';
import type { Outcome, Row } from './report';
import type { Comparison, PieceOut } from './rounds';
import { measureQueryScale } from './scale';
import { MATCHES_PER_ROUND } from './scenario-matching';
import { AUTH_CONNECTIONS, measureScenarioMatching, type StoreFigures } from './scenarios';
import { settings } from './settings';
import type { Log } from './standalone';
import { measureSvcEval } from './survey';

export interface RowGroup {
  readonly name: string;
  /** How the group's figures are measured, for the reader of docs/performance.md. */
  readonly method: string;
  /** The group's rows as they read when nothing could be measured. */
  readonly unmeasured: readonly Omit<Row, 'outcome'>[];
  measure(log: Log, secondsLeft: number): Promise<Measured>;
}

export interface Measured {
  readonly rows: readonly Row[];
  readonly more: readonly string[];
  /** The load generator against the fastest server measured, per answer (the load figures only). */
  readonly checks?: readonly GeneratorCheck[];
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const perSecond = (noun: string) => (value: number) => `${count(value)} ${noun}/s`;
const ratio = (value: number) => value.toFixed(2);
const multiple = (value: number) => `${value.toFixed(2)}x`;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const rounds = `median of ${settings.runs} alternating rounds`;
const load =
  `the app, its baseline and the generator's ceiling each in a process of its own pinned to core 0 (\`taskset -c 0\`), ` +
  `the app logging at LOG_LEVEL=${settings.serverLogLevel} into a file; load: \`taskset -c 1 wrk -t1 -c${settings.connections} -d${settings.seconds}s --latency\` ` +
  `per target and round, each run after ${settings.warmUpSeconds} s of the same load not counted; a round in which a run had a non-2xx answer or a socket error is left out (and said)`;
/** What the rounds left out say, as a line of "More figures". */
const leftOutLine = (group: string, leftOut: readonly string[]) =>
  leftOut.length === 0 ? [] : [`${group}: ${leftOut.length} of ${settings.runs} rounds left out, for invalid runs: ${leftOut.join('; ')}.`];

function against(comparison: Comparison, unit: (value: number) => string, shown: (value: number) => string, met: boolean): Extract<Outcome, { met: boolean }> {
  return { measured: unit(comparison.measured), baseline: unit(comparison.baseline), ratio: shown(comparison.ratio), met };
}

/** A ratio's goal at least `goal`, with a milestone on the way to it. */
function atLeast(comparison: Comparison, goal: number, milestone: number): Outcome {
  return { ...against(comparison, perSecond('req'), ratio, comparison.ratio >= goal), milestoneMet: comparison.ratio >= milestone };
}


/**
 * Each piece taken out: the rate without it, its ratio to the baseline, and the app with it against the
 * app without it (1 - that is the piece's part of a request).
 */
function piecesOut(without: Readonly<Record<string, PieceOut>>, unit: (value: number) => string): string {
  return Object.entries(without)
    .map(([name, { against, share }]) => `without ${name} ${unit(against.measured)}, ${ratio(against.ratio)} of the baseline (the app with it: ${ratio(share.ratio)} of the app without)`)
    .join('; ')
}

const yearFigure = (bytes?: number) =>
  `event tracker, one year by day, ALL${bytes === undefined ? '' : ` (${kB(bytes)})`}, vs a plain Express 5 route sending the same bytes`;
const weekFigure = (bytes?: number) => `event tracker, 8 days, one number${bytes === undefined ? '' : ` (${kB(bytes)})`}, same comparison`;
const uncachedFigure = 'event tracker, one year by day, ALL, with REPORT_CACHE_BYTES=0 (the report built on every request), vs the same baseline';
/** The goal for the event tracker against the plain route, and the milestone on the way to it. */
const EVENTS_GOAL = { goal: 0.9, milestone: 0.75, text: '>= 0.9 (milestone 0.75)' } as const;
const UNCACHED_GOAL = 0.5;
const eventTracker: RowGroup = {
  name: 'event tracker',
  method:
    `Event tracker (rows 1-3): requests per second of GET /api/events/20250101/20251231/day/ALL and of ` +
    `/api/events/20250106/20250113/day/<one number> with Basic credentials, answered from the kept report (row 3: the year from an app ` +
    `with REPORT_CACHE_BYTES=0, which builds the report on every request), over ` +
    `${count(settings.eventsHistoryDays)} days of generated calls on 3 numbers; baseline: a plain Express 5 route ` +
    `sending the exact bytes of the same answer; the generator's ceiling: a node:http server sending the app's answer (status, headers, bytes); ` +
    `${load}; ${rounds}; ratio = median of the rounds' ratios. In the same rounds, row 2's query to the app with each piece of its fixed cost ` +
    `taken out in turn by a stand-in of the same interface, then all four (bench/pieces.ts): the access lines (LOG_LEVEL=warn), the request ` +
    `metrics (a recorder that does nothing), the data rate limit (a middleware that lets every request through), the credential check (a ` +
    `verifier that returns the account); the app with a piece against the app without it says what the piece costs.`,
  unmeasured: [
    { figure: yearFigure(), goal: EVENTS_GOAL.text },
    { figure: weekFigure(), goal: EVENTS_GOAL.text },
    { figure: uncachedFigure, goal: `>= ${UNCACHED_GOAL}` },
  ],
  async measure(log) {
    const { servers, year, week, weekWithout, largeOverSmall, yearBytes, weekBytes, checks, leftOut } = await measureEventTracker(log);
    const rps = perSecond('req');
    return {
      rows: [
        { figure: yearFigure(yearBytes), goal: EVENTS_GOAL.text, outcome: atLeast(year.large, EVENTS_GOAL.goal, EVENTS_GOAL.milestone) },
        { figure: weekFigure(weekBytes), goal: EVENTS_GOAL.text, outcome: atLeast(week, EVENTS_GOAL.goal, EVENTS_GOAL.milestone) },
        { figure: uncachedFigure, goal: `>= ${UNCACHED_GOAL}`, outcome: against(year.uncached, rps, ratio, year.uncached.ratio >= UNCACHED_GOAL) },
      ],
      checks,
      more: [
        `Rows 1-2 were served over ${count(servers.largeCalls)} calls; the same year over ${count(servers.smallCalls)} calls: ` +
          `${ratio(year.small.ratio)} of the baseline (large history / small: ${ratio(largeOverSmall.ratio)}).`,
        `Row 2 with each piece of a kept report's fixed cost taken out in turn (bench/pieces.ts), same rounds: ${piecesOut(weekWithout, rps)}.`,
        ...leftOutLine('Event tracker', leftOut),
      ],
    };
  },
};

/** The goal: the app's svcEval calls per second at least this multiple of the soap package's alone. */
const SVC_EVAL_GOAL = 1.5;

const svcEval: RowGroup = {
  name: 'svcEval',
  method:
    `svcEval (row 4): calls per second of the two-question page PHP's SoapClient sends (SOAP-ENC arrays with xsi:type; ` +
    `Content-Type: text/xml; charset=utf-8 and its SOAPAction), POSTed to the survey web service of the app with the survey_session cookie ` +
    `of a first call kept (so every call continues one survey); baseline: a server built only from the soap package with the same WSDL, sent ` +
    `the same requests; the generator's ceiling: a node:http server reading the same requests and sending the app's answer; ${load}; ${rounds}; ` +
    `multiple = median of the rounds' multiples (the app's calls per second over the soap package's). In the same rounds, the app with the access lines, the request metrics and the survey rate limit ` +
    `taken out in turn, then all three (bench/pieces.ts).`,
  unmeasured: [{ figure: 'svcEval vs a server built only from the `soap` package with the same WSDL', goal: `>= ${SVC_EVAL_GOAL}x` }],
  async measure(log) {
    const figure = await measureSvcEval(log);
    return {
      rows: [{ ...this.unmeasured[0]!, outcome: against(figure, perSecond('calls'), multiple, figure.ratio >= SVC_EVAL_GOAL) }],
      more: [
        `svcEval: the envelope is ${figure.envelopeBytes} B, the app's answer ${figure.answerBytes} B.`,
        `Row 4 with each piece of a call's fixed cost taken out in turn (bench/pieces.ts), same rounds: ${piecesOut(figure.without, perSecond('calls'))}.`,
        ...leftOutLine('svcEval', figure.leftOut),
      ],
      checks: [figure.check],
    };
  },
};

const memory: RowGroup = {
  name: 'memory per call',
  method:
    `Memory per call (row 5): in a fresh process with --expose-gc, heapUsed + external (which includes ArrayBuffers) after two gc() calls, ` +
    `before and after ${count(settings.memoryCalls)} calls are added (10,000 per store.calls.add, after 10,000 added to warm up) to a ` +
    `memory store whose one account owns 20 numbers; the calls are the demo generator's, read through JSON text and the wire ` +
    `schema as an import reads them (call ids such as demo-18005550209-20250615-1, in order of time, so consecutive ids are of different numbers); ` +
    `version 1 keeps call_id, phone, started_at and the three counts. No baseline: the goal is absolute.`,
  unmeasured: [{ figure: 'live memory per stored call (version 1), in-memory store', goal: '<= 40 B' }],
  async measure(log) {
    const { v1, v2, v1Uuid } = await measureCallMemory(log);
    return {
      rows: [
        {
          figure: `live memory per stored call (version 1, ${count(v1.calls)} calls), in-memory store`,
          goal: '<= 40 B',
          outcome: { measured: `${v1.bytesPerCall.toFixed(0)} B (call ids of ${v1.callIdBytes.toFixed(0)} B as received)`, baseline: '—', ratio: '—', met: v1.bytesPerCall <= 40 },
        },
      ],
      more: [
        `Memory per call, version 2 (caller, durations, path): ${v2.bytesPerCall.toFixed(0)} B live.`,
        `Memory per call, version 1 with random UUIDs as call ids (${v1Uuid.callIdBytes.toFixed(0)} B each, no common opening to front-code): ${v1Uuid.bytesPerCall.toFixed(0)} B live.`,
        `Resident set growth per call: ${v1.rssBytesPerCall.toFixed(0)} B (version 1), ${v2.rssBytesPerCall.toFixed(0)} B (version 2).`,
      ],
    };
  },
};

const scaleFigure = (large: number) => `one-year daily query p50, ${count(large)} calls stored vs ${count(settings.smallCalls)}`;

const queryScale: RowGroup = {
  name: 'query p50 against calls stored',
  method:
    `Query against calls stored (row 6): p50 of ${settings.queryRequests} sequential GET /api/events/20250101/20251231/day/ALL ` +
    `(20 numbers merged, REPORT_CACHE_BYTES=0 so that each request builds the report) per store and round, over ` +
    `${count(settings.smallCalls)} calls (baseline) and over ${count(settings.largeCalls)} version-1 calls spread over 2025, both ` +
    `servers in one process; ${rounds}, the stores taking turns to go first; multiple = median of the rounds' multiples.`,
  unmeasured: [{ figure: scaleFigure(settings.largeCalls), goal: '<= 1.2x' }],
  async measure(log) {
    const { servers, p50 } = await measureQueryScale(log);
    return {
      rows: [{ figure: scaleFigure(servers.large.calls), goal: '<= 1.2x', outcome: against(p50, ms, multiple, p50.ratio <= 1.2) }],
      more: [`The store of ${count(servers.large.calls)} calls took ${servers.largeLoadSeconds.toFixed(0)} s to fill.`],
    };
  },
};

/** The goals for an import via the admin API, in records per second: absolute, the bare server only a point of comparison. */
const IMPORT_GOALS = { memory: { v1: 250_000, v2: 60_000 }, postgresql: { v1: 50_000, v2: 20_000 } } as const;
const recordsGoal = (perSecondGoal: number) => `>= ${count(perSecondGoal)} records/s`;
const importFigure = (version: 1 | 2, into: 'memory' | 'PostgreSQL, fsync on', bytes?: number) =>
  `import of version-${version} records${bytes === undefined ? '' : ` (${bytes.toFixed(0)} B each)`} via the admin API into ${into}, vs a bare node:http server parsing the same lines`;

const adminImport: RowGroup = {
  name: 'admin import into memory',
  method:
    `Import into memory (rows 7, 8): ${count(settings.importRecords)} records per version and round POSTed to /admin/calls as NDJSON, ` +
    `5,000 a request, one request at a time, into a fresh server process per round; baseline: a bare node:http server ` +
    `(bench/bare-ndjson-server.ts) receiving the same bytes and JSON.parsing each line; ${rounds}. The goals are absolute, the bare server a reference. In the same ` +
    `rounds, version-2 records into the app with each piece of an import's cost taken out in turn by a stand-in of the same interface, ` +
    `then all four, each over a store of its own (bench/import-pieces.ts): the caller placement (a caller placed by its last digit, not ` +
    `by libphonenumber), the record checks (a line's parsed JSON taken as the call it names, nothing checked), the form-item keys (a form ` +
    `item found by its item's name alone, not by a key of its four texts), the memory store's rollups (none kept); and into a store whose ` +
    `calls.add stores nothing. The version-2 targets (the app, the bare server and the app without pieces) take turns batch by batch, the ` +
    `order reversed every batch, each target's rate its records over the sum of its own requests' times.`,
  unmeasured: [
    { figure: importFigure(1, 'memory'), goal: recordsGoal(IMPORT_GOALS.memory.v1) },
    { figure: importFigure(2, 'memory'), goal: recordsGoal(IMPORT_GOALS.memory.v2) },
  ],
  async measure(log) {
    const figures = await measureAdminImport(log);
    const records = perSecond('records');
    return {
      rows: [
        {
          figure: importFigure(1, 'memory', figures.v1BytesPerRecord),
          goal: recordsGoal(IMPORT_GOALS.memory.v1),
          outcome: against(figures.v1, records, ratio, figures.v1.measured >= IMPORT_GOALS.memory.v1),
        },
        {
          figure: importFigure(2, 'memory', figures.v2BytesPerRecord),
          goal: recordsGoal(IMPORT_GOALS.memory.v2),
          outcome: against(figures.v2, records, ratio, figures.v2.measured >= IMPORT_GOALS.memory.v2),
        },
      ],
      more: [
        `Version-2 import into memory with each piece of its cost taken out in turn (bench/import-pieces.ts), same rounds: ${piecesOut(figures.v2Without, records)}.`,
      ],
    };
  },
};

const postgres: RowGroup = {
  name: 'PostgreSQL',
  method:
    `PostgreSQL (rows 9-11), measured by bench/postgres.ts on a database it creates on BENCH_DATABASE_URL's server: records per second ` +
    `of version-1 and of version-2 records POSTed to /admin/calls (5,000 a request, one request at a time) of a server on PostgreSQL, against the bare ` +
    `node:http server parsing each line (in the same process) sent the same bodies in the same round, the two taking turns to go first; ` +
    `${count(settings.importRecords)} records per version and round; and the p50 of the one-year daily ` +
    `query (REPORT_CACHE_BYTES=0) over about ${count(settings.postgresQueryDays * 300)} calls on PostgreSQL (vacuumed and analysed once they are in) against the same calls in memory; ${rounds}; multiple = median of the rounds' multiples. ` +
    `The rate-limit counts are PostgreSQL's (no Redis), one upsert a request; a report on every number with the cache off reads no report basis. ` +
    `In the same rounds, version-2 records into the app with each piece of an import's cost taken out in turn by a stand-in of the same interface, each ` +
    `on a database of its own (bench/import-pieces.ts): the record checks (a line's parsed JSON taken as the call it names), the callers (taken off the ` +
    `records on their way to the store: their placement, the caller and region columns, the caller_days and region_days rollups), the paths (likewise: ` +
    `the form items' ids, the path columns, form_item_days), the database (a calls.add that stores nothing), the version-2 targets taking turns ` +
    `batch by batch as in row 8's; and the query on both stores with the ` +
    `credential check (a verifier that returns the account) and the data rate limit (a middleware that lets every request through) taken out in turn, then both (bench/pieces.ts).`,
  unmeasured: [
    { figure: importFigure(1, 'PostgreSQL, fsync on'), goal: recordsGoal(IMPORT_GOALS.postgresql.v1) },
    { figure: importFigure(2, 'PostgreSQL, fsync on'), goal: recordsGoal(IMPORT_GOALS.postgresql.v2) },
    { figure: 'one-year daily query p50, PostgreSQL vs memory', goal: '<= 2x' },
  ],
  async measure(log, secondsLeft) {
    const outcome = await measurePostgresFigures(log, secondsLeft);
    if ('notMeasured' in outcome) return { rows: this.unmeasured.map((row) => ({ ...row, outcome: { notMeasured: outcome.notMeasured } })), more: [] };
    const { figures } = outcome;
    const fsyncOn = figures.fsync === 'on';
    const importRow = (row: Omit<Row, 'outcome'>, comparison: Comparison, goal: number): Row => ({
      ...row,
      outcome: {
        ...against(comparison, perSecond('records'), ratio, fsyncOn && comparison.measured >= goal),
        measured: `${perSecond('records')(comparison.measured)} (fsync ${figures.fsync})`,
      },
    });
    return {
      rows: [
        importRow(this.unmeasured[0]!, figures.importV1, IMPORT_GOALS.postgresql.v1),
        importRow(this.unmeasured[1]!, figures.importV2, IMPORT_GOALS.postgresql.v2),
        {
          figure: `one-year daily query p50 at ${count(figures.queryCalls)} calls, PostgreSQL vs memory`,
          goal: '<= 2x',
          outcome: { measured: ms(figures.postgresQueryP50Ms), baseline: ms(figures.memoryQueryP50Ms), ratio: multiple(figures.queryRatio), met: figures.queryRatio <= 2 },
        },
      ],
      more: [
        `Version-2 import into PostgreSQL with each piece of its cost taken out in turn (bench/import-pieces.ts), same rounds: ${piecesOut(figures.importV2Without, perSecond('records'))}.`,
        `One-year daily query with each round trip but the report's read taken out of both stores in turn (bench/pieces.ts), same rounds: ` +
          `${Object.entries(figures.queryWithout)
            .map(([name, { against, share }]) => `without ${name === 'both' ? 'both' : `the ${name}`} PostgreSQL ${ms(against.measured)} against memory ${ms(against.baseline)}, ${multiple(against.ratio)} (PostgreSQL with it: ${multiple(share.ratio)} of PostgreSQL without)`)
            .join('; ')}.`,
      ],
    };
  },
};

const logins: RowGroup = {
  name: 'logins',
  method:
    `Logins (row 12): p99 latency (wrk's --latency) of GET /api/events/20250101/20250131/day/ALL (REPORT_CACHE_BYTES=0) while 4 clients keep ` +
    `POSTing /api/auth (one scrypt hash each: AUTH_CACHE_SECONDS=0; a second wrk, -c4, on core 1 too), against the same server alone (baseline), ` +
    `PASSWORD_HASH_CONCURRENCY=1 (the default); the server's process, libuv's thread pool included, has core 0 only, so a hash takes ` +
    `the core the reports are answered on; the generator's ceiling: a node:http server sending the report's answer; ${load}; ${rounds}; ` +
    `multiple = median of the rounds' multiples.`,
  unmeasured: [{ figure: 'event tracker p99 while 4 clients keep authenticating (scrypt), vs alone', goal: '<= 1.5x' }],
  async measure(log) {
    const slowdown = await measureLoginSlowdown(log);
    const p99 = (value: number) => `p99 ${value.toFixed(0)} ms`;
    return {
      rows: [{ ...this.unmeasured[0]!, outcome: against(slowdown.bounded, p99, multiple, slowdown.bounded.ratio <= 1.5) }],
      more: [
        `Logins with PASSWORD_HASH_CONCURRENCY=${slowdown.unboundedConcurrency} (bounded only by libuv's thread pool): p99 ` +
          `${multiple(slowdown.unbounded.ratio)} of the same server alone.`,
        ...leftOutLine('Logins', slowdown.leftOut),
      ],
      checks: [slowdown.check],
    };
  },
};

const microseconds = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} µs`;
const scenarioFigure = (request: string, store: string, active?: number) =>
  `${request}, ${store}, ${active === undefined ? 'SANDBOX_MAX_SCENARIOS' : `${active} (SANDBOX_MAX_SCENARIOS)`} active scenarios, none matching, vs no scenario`;
const SCENARIO_STORES = { memory: 'memory store', postgresql: 'PostgreSQL' } as const;
const DATA_REQUEST = 'data request (8 days, one number)';

const scenarios: RowGroup = {
  name: 'scenarios with the cap full',
  method:
    `Scenarios (rows 13-16): requests per second of GET /api/events/20250106/20250113/day/<one number> with Basic credentials (answered from ` +
    `the kept report) and of POST /api/auth (one scrypt hash each: AUTH_CACHE_SECONDS=0; -c${AUTH_CONNECTIONS}), to the app with the admin API over a store holding ` +
    `SANDBOX_MAX_SCENARIOS (the default) active scenarios of the request's target, added through POST /admin/scenarios until its 409, none ` +
    `matching: every other one names another account, the rest another client address, so that each request is compared with every one; ` +
    `baseline: the same app over a store of the same data with no scenario (bench/scenarios.ts); on the memory store, and on PostgreSQL when ` +
    `BENCH_DATABASE_URL is set (a database of its own per store, the rate-limit counts there too; PostgreSQL not pinned); the generator's ` +
    `ceiling: a node:http server sending the app's answer; ${load}; ${rounds}; ratio = median of the rounds' ratios. In the same rounds, the ` +
    `data request to the app with SANDBOX_SCENARIOS=false, which never asks the store; and, without HTTP, in a process of its own ` +
    `(bench/scenario-matching.ts), microseconds per store.scenarios.fire of the data request on a memory store with the cap full and with ` +
    `none, ${count(MATCHES_PER_ROUND)} a round.`,
  unmeasured: Object.values(SCENARIO_STORES).flatMap((store) => [
    { figure: scenarioFigure(DATA_REQUEST, store), goal: '>= 0.9' },
    { figure: scenarioFigure('POST /api/auth', store), goal: '>= 0.9' },
  ]),
  async measure(log) {
    const figures = await measureScenarioMatching(log);
    const rps = perSecond('req');
    const rows = (store: keyof typeof SCENARIO_STORES, { data, auth }: StoreFigures) => [
      { figure: scenarioFigure(DATA_REQUEST, SCENARIO_STORES[store], figures.mostActive), goal: '>= 0.9', outcome: against(data, rps, ratio, data.ratio >= 0.9) },
      { figure: scenarioFigure('POST /api/auth', SCENARIO_STORES[store], figures.mostActive), goal: '>= 0.9', outcome: against(auth, rps, ratio, auth.ratio >= 0.9) },
    ];
    const { postgresql } = figures;
    const more = (name: string, { dataAsking, dataAddedMicroseconds }: StoreFigures) =>
      `Scenarios, ${name}: the data request with the cap full took ${microseconds(dataAddedMicroseconds)} more than with none (1/rate less 1/rate, ` +
      `median of the rounds); with scenarios on and none stored, ${ratio(dataAsking.ratio)} of the rate of the same app with SANDBOX_SCENARIOS=false.`;
    return {
      rows: [
        ...rows('memory', figures.memory),
        ...('notMeasured' in postgresql
          ? this.unmeasured.slice(2).map((row) => ({ ...row, outcome: { notMeasured: postgresql.notMeasured } }))
          : rows('postgresql', postgresql.figures)),
      ],
      more: [
        `Scenarios, the memory store's matching alone (store.scenarios.fire of the data request, without HTTP, in a process of its own): ` +
          `${microseconds(figures.memoryMatching.measured)} with ${figures.mostActive} scenarios active, none matching, ` +
          `${microseconds(figures.memoryMatching.baseline)} with none.`,
        more('memory store', figures.memory),
        ...('notMeasured' in postgresql ? [] : [more(`PostgreSQL (fsync ${postgresql.fsync})`, postgresql.figures)]),
        ...leftOutLine('Scenarios', figures.leftOut),
      ],
      checks: figures.checks,
    };
  },
};

const peerFigure = (request: PeerRequest, peer: (typeof PEERS)[number]) => `${REQUEST_NAMES[request]}, this server (from its data) vs ${peerName(peer)} (from the examples)`;

const peers: RowGroup = {
  name: 'peers',
  method:
    `Peers (rows 17-20): requests per second and p99 latency (wrk's --latency) of GET /api/events/20250106/20250113/day/<one number> with ` +
    `Basic credentials (this server answering from the kept report over a year of generated calls on 3 numbers) and of POST /api/auth with a ` +
    `form (this server checking the password by scrypt once, then by the remembered login's HMAC-SHA-256: AUTH_CACHE_SECONDS=1200, the ` +
    `default; -c${AUTH_CONNECTIONS}), against the mock servers an API ` +
    `client's author would run instead, both pinned devDependencies started from this server's own /openapi.json and answering from its ` +
    `examples (bench/peer-programs.ts): Stoplight Prism, \`prism mock <document> -h 127.0.0.1 -p <port>\` (static, its default: no generated ` +
    `answers), and Mockoon's CLI, \`mockoon-cli start -d <environment> -l 127.0.0.1 -p <port> --disable-log-to-file --disable-admin-api ` +
    `--disable-external-refs\` over \`mockoon-cli import\` of the document (the conversion \`start -d <document>\` runs) with each route's ` +
    `default response made the first example of its first 2xx answer, templating off (the import makes the default a body generated from ` +
    `the schema through Faker templates; the X-RateLimit-* headers, which have no example, stay Faker templates); each peer on Node.js 24 in every pass (this server on the pass's Node.js) ` +
    `(BENCH_PEER_NODE, else .ci/node24's; Prism needs >= 24.18), logging at its default level into a file, and must answer both requests ` +
    `2xx before the rounds, else its row is not measured; baseline: the peer; the generator's ceiling: a node:http server sending this ` +
    `server's answer; ${load}; ${rounds}; ratio = this server's rate / the peer's, median of the ` +
    `rounds' ratios (goal > 1: ahead of it); p99: median of the rounds' p99.`,
  unmeasured: REQUESTS.flatMap((request) => PEERS.map((peer) => ({ figure: peerFigure(request, peer), goal: '> 1' }))),
  async measure(log) {
    const figures: PeerFigures = await measurePeers(log);
    const rateAndP99 = (rate: number, p99: number) => `${perSecond('req')(rate)}, p99 ${p99.toFixed(1)} ms`;
    const bytes = (request: PeerRequest) =>
      `${REQUEST_NAMES[request]}: this server's ${figures.appBytes[request]} B, ` +
      PEERS.map((peer) => {
        const figure = figures.versus[request][peer];
        return `${peer}'s ${'notMeasured' in figure ? 'not measured' : `${figure.peerBytes} B`}`;
      }).join(', ');
    return {
      rows: REQUESTS.flatMap((request) =>
        PEERS.map((peer) => {
          const figure = figures.versus[request][peer];
          if ('notMeasured' in figure) return { figure: peerFigure(request, peer), goal: '> 1', outcome: { notMeasured: figure.notMeasured } };
          const { rate, p99Ms } = figure;
          return {
            figure: peerFigure(request, peer),
            goal: '> 1',
            outcome: { measured: rateAndP99(rate.measured, p99Ms.app), baseline: rateAndP99(rate.baseline, p99Ms.peer), ratio: ratio(rate.ratio), met: rate.ratio > 1 },
          };
        }),
      ),
      more: [
        `Peers on Node.js ${figures.peerNode}; this server over ${count(figures.calls)} calls. Answers: ${REQUESTS.map(bytes).join('; ')}.`,
        ...leftOutLine('Peers', figures.leftOut),
      ],
      checks: figures.checks,
    };
  },
};

export const ROW_GROUPS: readonly RowGroup[] = [eventTracker, svcEval, memory, queryScale, adminImport, postgres, logins, scenarios, peers];
