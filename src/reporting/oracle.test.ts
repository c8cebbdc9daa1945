import { regionOfCaller } from '../domain/caller-region';
import { localDate, offsetChanges, PERIODS } from '../../test/oracle/calendar';
import { Comparison, diagnosticFlowXml, geographicXml, seriesXml } from '../../test/oracle/compare';
import { Oracle, SERIES_RESOURCES, type SeriesResource } from '../../test/oracle/expected';
import { ACCOUNTS, callerPool, generateCalls, type AccountPlan } from '../../test/oracle/generate';
import { CAPPED_APPLICATION, LIMITS_ACCOUNT, limitsCalls } from '../../test/oracle/limits';
import { onePhone, rangePath, rangesFor, seriesQueries, type RangePlan, type SeriesQuery } from '../../test/oracle/queries';
import { oracleSeed, Random } from '../../test/oracle/random';
import { inParallel, OracleServer, type ImportAnswer } from '../../test/oracle/server';

/*
 * An independent oracle for every raw-data resource. Randomized call records (versions 1 and 2) for
 * accounts in five time zones go in through the admin API and the store; every answer of the event
 * tracker, call volume, performance, caller profile, geographic and diagnostic flow resources is then
 * held against the same answer recomputed from the raw records with plain code (test/oracle/expected.ts),
 * following docs/specification.md §2.4, with luxon for the calendar and none of the
 * server's reporting, storage or time code. ORACLE_SEED=<n> replays a data set, ORACLE_SEED=random
 * draws a new one; the seed is in every test's name and every failure.
 */
const SEED = oracleSeed();
const CALLS = Number(process.env.ORACLE_CALLS ?? 2_400);
const IN_FLIGHT = 4;

const random = new Random(SEED);
const pool = callerPool(random);
const data = generateCalls(`oracle-${SEED}`, random, CALLS, pool);
/** Calls that arrive after the time-zone change and the move, for days that already have calls. */
const late = generateCalls(`oracle-${SEED}-late`, random, 300, pool, false);
const RANGES = new Map<string, RangePlan[]>(ACCOUNTS.map((account) => [account.login, rangesFor(account, random)]));
const ONE_PHONE = new Map<string, string>(ACCOUNTS.map((account) => [account.login, onePhone(account.phones, random)]));
/** Calls through the admin API: the first 60 %, in three bodies; the rest straight into the store. */
const VIA_ADMIN = Math.floor(data.records.length * 0.6);

const accountNamed = (login: string): AccountPlan => ACCOUNTS.find((account) => account.login === login) as AccountPlan;
const rangesOf = (login: string): RangePlan[] => RANGES.get(login) as RangePlan[];
const rangeLabelled = (login: string, label: string): RangePlan => rangesOf(login).find((range) => range.label === label) as RangePlan;

interface World {
  readonly server: OracleServer;
  readonly oracle: Oracle;
  readonly imports: readonly ImportAnswer[];
}

async function loadWorld(): Promise<World> {
  const server = await OracleServer.start();
  const oracle = new Oracle();
  await Promise.all(ACCOUNTS.map((account) => server.addAccount(account)));
  for (const account of ACCOUNTS) oracle.setAccount(account.login, account.zone, account.phones);
  const imports: ImportAnswer[] = [];
  const third = Math.ceil(VIA_ADMIN / 3);
  for (let from = 0; from < VIA_ADMIN; from += third) {
    // The middle body as a JSON array, the others as NDJSON.
    const body = data.records.slice(from, Math.min(from + third, VIA_ADMIN));
    imports.push(await server.postCalls(body, from === third ? 'json' : 'ndjson'));
  }
  await server.storeCalls(data.records.slice(VIA_ADMIN));
  imports.push(await server.postCalls(data.resent));
  oracle.addRecords(data.records);
  oracle.addRecords(data.resent);
  return { server, oracle, imports };
}

let world: World;

const seriesPath = (resource: SeriesResource, query: Pick<SeriesQuery, 'range' | 'period' | 'phone'>) =>
  `/api/${resource}/${rangePath(query.range)}/${query.period}/${encodeURIComponent(query.phone)}`;
const geographicPath = (range: RangePlan, phone: string) => `/api/profile/${rangePath(range)}/${encodeURIComponent(phone)}`;
const flowPath = (range: RangePlan, phone: string) => `/api/path/${rangePath(range)}/${encodeURIComponent(phone)}`;

const described = (login: string, path: string, range: RangePlan) =>
  `GET ${path} as ${login} (${world.oracle.zoneOf(login)}; ${range.label})`;

const EVERY_LOGIN = ACCOUNTS.map((account) => account.login);
const phoneBeforeMove = (login: string) => ONE_PHONE.get(login) as string;

/** Every range, period and ALL or one number, for the given accounts. */
function allSeriesQueries(phoneOf = phoneBeforeMove, logins: readonly string[] = EVERY_LOGIN): SeriesQuery[] {
  return logins.flatMap((login) => seriesQueries(login, rangesOf(login), phoneOf(login)));
}

async function compareSeries(comparison: Comparison, resource: SeriesResource, queries: readonly SeriesQuery[]): Promise<void> {
  await inParallel(queries, IN_FLIGHT, async (query) => {
    const path = seriesPath(resource, query);
    const expected = world.oracle.series(resource, query.login, query.phone, query.range.start, query.range.end, query.period);
    comparison.json(described(query.login, path, query.range), await world.server.get(query.login, path), expected);
  });
}

interface RangeQuery {
  readonly login: string;
  readonly range: RangePlan;
  readonly phone: string;
}

/** Every range, ALL or one number, for the given accounts. */
function rangeQueries(phoneOf = phoneBeforeMove, logins: readonly string[] = EVERY_LOGIN): RangeQuery[] {
  return logins.flatMap((login) =>
    rangesOf(login).flatMap((range) => ['ALL', phoneOf(login)].map((phone) => ({ login, range, phone }))),
  );
}

async function compareGeographic(comparison: Comparison, queries: readonly RangeQuery[]): Promise<void> {
  await inParallel(queries, IN_FLIGHT, async ({ login, range, phone }) => {
    const path = geographicPath(range, phone);
    const expected = world.oracle.geographic(login, phone, range.start, range.end);
    comparison.json(described(login, path, range), await world.server.get(login, path), expected);
  });
}

async function compareFlow(comparison: Comparison, queries: readonly RangeQuery[]): Promise<void> {
  await inParallel(queries, IN_FLIGHT, async ({ login, range, phone }) => {
    const path = flowPath(range, phone);
    const expected = world.oracle.diagnosticFlow(login, phone, range.start, range.end);
    const answer = await world.server.get(login, path);
    if (expected.status === 400) comparison.status(described(login, path, range), answer, 400, /10,?000/);
    else comparison.json(described(login, path, range), answer, expected.body);
  });
}

describe(`the oracle's randomized data set (seed ${SEED})`, () => {
  test('covers what the oracle must check: both versions, every caller form, midnights and DST switches, every kind of region', () => {
    const records = data.records;
    expect(records.filter((record) => Object.keys(record).length === 6).length).toBeGreaterThan(100);
    expect(records.filter((record) => record.path !== undefined && record.path.length > 0).length).toBeGreaterThan(300);
    for (const form of [/^\d{10}$/, /^1\d{10}$/, /^\+1\d{10}$/, /^\+[2-9]\d+$/]) {
      expect(records.some((record) => form.test(record.caller ?? ''))).toBe(true);
    }
    const oracle = new Oracle();
    oracle.addRecords(records);
    const calls = oracle.allCalls();
    const regions = new Set(calls.flatMap((call) => (call.caller === undefined ? [] : [regionOfCaller(call.caller)])));
    const states = [...regions].filter((region) => region.startsWith('US-') && region !== 'US-TOLLFREE');
    expect(states.length).toBeGreaterThanOrEqual(6);
    for (const region of ['US-TOLLFREE', 'CA', 'GB', 'ZZ']) expect(regions).toContain(region);
    for (const account of ACCOUNTS) {
      const own = calls.filter((call) => account.phones.includes(call.phone));
      const nearMidnight = own.filter((call) => {
        const before = localDate(call.ms - 120_000, account.zone);
        const after = localDate(call.ms + 120_000, account.zone);
        return before !== after;
      });
      expect(nearMidnight.length).toBeGreaterThan(10);
      for (const change of offsetChanges(account.zone, Date.UTC(2018, 0, 1), Date.UTC(2019, 11, 31)).slice(0, 2)) {
        expect(own.some((call) => call.ms >= change - 4 * 3_600_000 && call.ms < change)).toBe(true);
        expect(own.some((call) => call.ms >= change && call.ms < change + 4 * 3_600_000)).toBe(true);
      }
    }
  });
});

describe(`the raw-data resources agree with an oracle recomputing them from randomized raw records (seed ${SEED})`, () => {
  beforeEach(async () => {
    world = await loadWorld();
  });

  afterEach(() => world.server.close());

  test('the admin API stores every generated record once and counts a record sent again as a duplicate', () => {
    const [first, second, third, resent] = world.imports as [ImportAnswer, ImportAnswer, ImportAnswer, ImportAnswer];
    for (const answer of [first, second, third, resent]) expect(answer.rejected).toEqual([]);
    expect(first.inserted + second.inserted + third.inserted).toBe(VIA_ADMIN);
    expect(resent).toEqual({ received: data.resent.length, inserted: 0, duplicates: data.resent.length, rejected: [] });
    expect(world.oracle.callCount).toBe(data.records.length);
  });

  test.each([
    ['event tracker', 'events'],
    ['call volume', 'volume'],
    ['performance', 'performance'],
    ['caller profile', 'profile'],
  ] as const)(
    'the %s series match calls recomputed from raw records in every zone, period and range, for ALL and one number',
    async (_name, resource) => {
      const comparison = new Comparison(SEED);
      await compareSeries(comparison, resource, allSeriesQueries());
      comparison.assertAgreement();
    },
  );

  test('the caller profile counts a caller once per period whatever form, day or number they called with', async () => {
    const comparison = new Comparison(SEED);
    // The story of test/oracle/generate.ts: one caller in three forms, on two numbers, three days of one week.
    let weaker = 0;
    for (const account of ACCOUNTS) {
      for (const range of rangesOf(account.login).filter((plan) => plan.label === 'all the data')) {
        const byDay = world.oracle.series('profile', account.login, 'ALL', range.start, range.end, 'day');
        const byWeek = world.oracle.series('profile', account.login, 'ALL', range.start, range.end, 'week');
        const dailySum = Object.values(byDay.callers ?? {}).reduce((sum, count) => sum + count, 0);
        const weeklySum = Object.values(byWeek.callers ?? {}).reduce((sum, count) => sum + count, 0);
        if (weeklySum < dailySum) weaker += 1;
        for (const period of PERIODS) {
          const path = seriesPath('profile', { range, period, phone: 'ALL' });
          const expected = world.oracle.series('profile', account.login, 'ALL', range.start, range.end, period);
          comparison.json(described(account.login, path, range), await world.server.get(account.login, path), expected);
        }
      }
    }
    expect(weaker).toBe(ACCOUNTS.length);
    comparison.assertAgreement();
  });

  test('the geographic answer matches callers placed by regionOfCaller over every range: 51 US keys, toll-free, other countries by calls', async () => {
    const comparison = new Comparison(SEED);
    await compareGeographic(comparison, rangeQueries());
    comparison.assertAgreement();
  });

  test('the diagnostic flow matches form items summed from raw paths: applications by URL, entries by visits then page, form, item', async () => {
    const comparison = new Comparison(SEED);
    await compareFlow(comparison, rangeQueries());
    comparison.assertAgreement();
  });

  test('the XML form of every resource carries the oracle values in the order of the JSON form', async () => {
    const comparison = new Comparison(SEED);
    const xml = 'application/xml';
    for (const login of ['new-york', 'sydney', 'st-johns']) {
      const week = rangeLabelled(login, 'a DST switch week');
      const monthBoundary = rangeLabelled(login, 'a month boundary');
      const phone = ONE_PHONE.get(login) as string;
      for (const resource of SERIES_RESOURCES) {
        const queries = [
          { range: week, period: 'week', phone: 'ALL' },
          { range: monthBoundary, period: 'month', phone },
        ] as const;
        for (const query of queries) {
          const path = seriesPath(resource, query);
          const expected = world.oracle.series(resource, login, query.phone, query.range.start, query.range.end, query.period);
          comparison.xml(described(login, path, query.range), await world.server.get(login, path, xml), seriesXml(expected));
        }
      }
      const year = rangeLabelled(login, 'a year');
      const empty = rangeLabelled(login, 'days without calls');
      for (const range of [week, year, empty]) {
        const geographic = geographicPath(range, phone);
        const places = geographicXml(world.oracle.geographic(login, phone, range.start, range.end));
        comparison.xml(described(login, geographic, range), await world.server.get(login, geographic, xml), places);
        const flow = world.oracle.diagnosticFlow(login, 'ALL', range.start, range.end);
        if (flow.status !== 200) throw new Error('the random data never exceed the diagnostic flow limit');
        const path = flowPath(range, 'ALL');
        const answer = await world.server.get(login, path, `application/json;q=0.5, ${xml}`);
        comparison.xml(described(login, path, range), answer, diagnosticFlowXml(flow.body));
      }
    }
    comparison.assertAgreement();
  });

  const newYork = accountNamed('new-york');
  const sydney = accountNamed('sydney');
  const stJohns = accountNamed('st-johns');
  const moved = sydney.phones[1] as string;
  const affected = [newYork.login, sydney.login, stJohns.login];
  /** After the move, St. John's asks about the number it received; Sydney about one it kept. */
  const phoneAfterMove = (login: string) =>
    login === stJohns.login ? moved : (ONE_PHONE.get(login) as string).replace(moved, sydney.phones[0] as string);

  /**
   * New York moves to a zone of the other hemisphere whose DST skips midnight (its day then starts at
   * 01:00); a Sydney number goes to St. John's.
   */
  async function changeZoneAndMoveNumber(): Promise<void> {
    await world.server.setZone(newYork, 'America/Santiago');
    world.oracle.setZone(newYork.login, 'America/Santiago');
    await world.server.movePhone(moved, sydney, stJohns);
    world.oracle.movePhone(moved, sydney.login, stJohns.login);
  }

  async function compareEveryResource(comparison: Comparison, logins: readonly string[]): Promise<void> {
    for (const resource of SERIES_RESOURCES) await compareSeries(comparison, resource, allSeriesQueries(phoneAfterMove, logins));
    await compareGeographic(comparison, rangeQueries(phoneAfterMove, logins));
    await compareFlow(comparison, rangeQueries(phoneAfterMove, logins));
  }

  test('after one account changes time zone and a number moves to another account, every resource re-buckets and follows the number', async () => {
    const before = new Comparison(SEED);
    const some = allSeriesQueries(phoneBeforeMove, affected).filter(
      (query) => query.range.label === 'all the data' || query.range.label === 'a DST switch week',
    );
    for (const resource of SERIES_RESOURCES) await compareSeries(before, resource, some);
    before.assertAgreement();

    await changeZoneAndMoveNumber();

    const after = new Comparison(SEED);
    await compareEveryResource(after, EVERY_LOGIN);
    for (const path of [
      `/api/volume/20180101/20181231/month/${moved}`,
      `/api/profile/20180101/20181231/${moved}`,
      `/api/path/20180101/20181231/${moved}`,
    ]) {
      const answer = await world.server.get(sydney.login, path);
      after.status(`GET ${path} as ${sydney.login}, who no longer owns ${moved}`, answer, 400, /not on this account/);
    }
    after.assertAgreement();
  });

  test('calls arriving after a time-zone change and a move are added in the new zone, for the new owner, beside the re-bucketed ones', async () => {
    await changeZoneAndMoveNumber();
    const half = Math.floor(late.records.length / 2);
    const answer = await world.server.postCalls(late.records.slice(0, half));
    expect(answer.rejected).toEqual([]);
    await world.server.storeCalls(late.records.slice(half));
    world.oracle.addRecords(late.records);
    expect(late.records.filter((record) => record.phone.replace('+', '') === moved).length).toBeGreaterThan(5);
    const comparison = new Comparison(SEED);
    await compareEveryResource(comparison, affected);
    comparison.assertAgreement();
  });
});

describe('the diagnostic flow bounds its answer', () => {
  let server: OracleServer;
  const oracle = new Oracle();
  oracle.setAccount(LIMITS_ACCOUNT.login, LIMITS_ACCOUNT.zone, LIMITS_ACCOUNT.phones);
  oracle.addRecords(limitsCalls());

  beforeEach(async () => {
    server = await OracleServer.start();
    await server.addAccount(LIMITS_ACCOUNT);
    const answer = await server.postCalls(limitsCalls());
    if (answer.rejected.length > 0) throw new Error(`limits data refused: ${JSON.stringify(answer.rejected.slice(0, 3))}`);
  });

  afterEach(() => server.close());

  test('keeps the 1,000 most visited entries of an application (ties cut by page, form, item) in a range of exactly 10,000 entries', async () => {
    const expected = oracle.diagnosticFlow(LIMITS_ACCOUNT.login, 'ALL', '20180601', '20180601');
    if (expected.status !== 200) throw new Error('the limits data set should hold exactly 10,000 entries on 2018-06-01');
    expect(expected.body.applications[CAPPED_APPLICATION]).toHaveLength(1_000);
    expect(Object.values(expected.body.applications).reduce((sum, entries) => sum + entries.length, 0)).toBe(9_999);
    const comparison = new Comparison();
    const path = '/api/path/20180601/20180601/ALL';
    comparison.json(`GET ${path} as limits`, await server.get(LIMITS_ACCOUNT.login, path), expected.body);
    comparison.assertAgreement();
  });

  test('refuses with 400 naming the limit a range of more than 10,000 entries, and answers a range within it', async () => {
    expect(oracle.diagnosticFlow(LIMITS_ACCOUNT.login, 'ALL', '20180601', '20180602').status).toBe(400);
    const comparison = new Comparison();
    for (const phone of ['ALL', LIMITS_ACCOUNT.phones[0] as string]) {
      const path = `/api/path/20180601/20180602/${phone}`;
      comparison.status(`GET ${path} as limits`, await server.get(LIMITS_ACCOUNT.login, path), 400, /10,?000/);
      const xmlAnswer = await server.get(LIMITS_ACCOUNT.login, path, 'application/xml');
      comparison.status(`GET ${path} as limits in XML`, xmlAnswer, 400);
    }
    const secondDay = oracle.diagnosticFlow(LIMITS_ACCOUNT.login, 'ALL', '20180602', '20180602');
    const path = '/api/path/20180602/20180602/ALL';
    if (secondDay.status !== 200) throw new Error('2018-06-02 alone holds two entries');
    comparison.json(`GET ${path} as limits`, await server.get(LIMITS_ACCOUNT.login, path), secondDay.body);
    comparison.assertAgreement();
  });
});
