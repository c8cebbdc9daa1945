import { DateTime, FixedOffsetZone } from 'luxon';
import type { CallRecordInput } from '../../src/domain/call-record';
import { addDays, compact, dateInZone, localMidnight, offsetChanges, type CompactDate } from './calendar';
import type { Random } from './random';

/*
 * Randomized call records (version 1 and 2 mixed) for accounts in zones with and without DST, with
 * instants crowded around local midnights, week and month starts and DST switches, callers drawn from a
 * pool (the same caller written in its several forms), and paths over a small set of form items.
 */

export interface AccountPlan {
  readonly tool: 'dev' | 'fuse' | 'insight' | 'fuseplus';
  readonly login: string;
  readonly password: string;
  readonly zone: string;
  readonly phones: readonly string[];
}

export const ACCOUNTS: readonly AccountPlan[] = [
  { tool: 'dev', login: 'new-york', password: 'oracle-pw-1', zone: 'America/New_York', phones: ['18005550100', '18005550101', '16175550000'] },
  { tool: 'fuseplus', login: 'london', password: 'oracle-pw-2', zone: 'Europe/London', phones: ['442079460000', '442079460001'] },
  { tool: 'dev', login: 'sydney', password: 'oracle-pw-3', zone: 'Australia/Sydney', phones: ['61290000000', '61290000001', '61290000002'] },
  { tool: 'insight', login: 'st-johns', password: 'oracle-pw-4', zone: 'America/St_Johns', phones: ['17095550100', '17095550101'] },
  { tool: 'dev', login: 'kolkata', password: 'oracle-pw-5', zone: 'Asia/Kolkata', phones: ['911140000000', '911140000001'] },
];

export const ZONES: readonly string[] = ACCOUNTS.map((account) => account.zone);
/** The zones whose midnights and switches calls crowd around: the accounts' and Santiago's, where DST skips midnight. */
export const TIME_ZONES: readonly string[] = [...ZONES, 'America/Santiago'];

/** The calls lie in these 27 months (2018-01-01 to 2020-03-30, a leap day included), with a little spill at both ends. */
export const DATA_FROM: CompactDate = '20180101';
export const DATA_DAYS = 820;
const FROM_MS = Date.UTC(2017, 11, 31);
const TO_MS = Date.UTC(2020, 3, 2);

export const APPLICATIONS = [
  'https://ivr.example.com/start.vxml',
  'https://ivr.example.com/Billing.vxml',
  'https://ivr.example.com/billing.vxml',
  'http://ivr.example.org/app?lang=en&v="2"',
  'https://ivr.example.com/start.vxml#<x>',
  // Text a server might use as a key of a plain object.
  '__proto__',
] as const;
const PAGES = ['main.vxml', 'Main.vxml', 'menu.vxml', '<confirm>.vxml', 'café.vxml', 'zz top', 'constructor'] as const;
const FORMS = ['main_menu', 'Main_menu', 'confirm', 'a&b', 'toString'] as const;
const ITEMS = ['selection', 'account', 'PIN', 'zip', '__proto__'] as const;

/** A calling party: its international digits, and the ways a record may write it. */
export interface CallerPlan {
  readonly international: string;
  readonly forms: readonly string[];
}

function northAmerican(area: string, random: Random): CallerPlan {
  const local = `${area}${random.int(2, 9)}${random.digits(2)}${random.digits(4)}`;
  return { international: `1${local}`, forms: [local, `1${local}`, `+1${local}`] };
}

function international(digits: string): CallerPlan {
  // Ten digits without a + read as North American: such a number is written with its + only.
  return { international: digits, forms: digits.length === 10 ? [`+${digits}`] : [`+${digits}`, digits] };
}

/** Area codes of several states and DC, toll-free codes, Canada, Puerto Rico, Guam, and codes nobody uses. */
const STATE_AREAS = ['617', '212', '213', '907', '202', '305', '312', '206', '808', '512', '303', '404', '701', '307', '802', '504'];
const TOLL_FREE_AREAS = ['800', '833', '844', '855', '866', '877', '888'];
const OTHER_NANP_AREAS = ['416', '604', '514', '709', '787', '671'];

export function callerPool(random: Random): CallerPlan[] {
  const pool: CallerPlan[] = [];
  for (let index = 0; index < 34; index += 1) pool.push(northAmerican(random.pick(STATE_AREAS), random));
  for (let index = 0; index < 6; index += 1) pool.push(northAmerican(random.pick(TOLL_FREE_AREAS), random));
  for (let index = 0; index < 8; index += 1) pool.push(northAmerican(random.pick(OTHER_NANP_AREAS), random));
  const abroad = [
    () => `4420${random.digits(8)}`,
    () => `447700900${random.digits(3)}`,
    () => `331${random.digits(8)}`,
    () => `4930${random.digits(8)}`,
    () => `612${random.digits(8)}`,
    () => `9198${random.digits(8)}`,
    () => `813${random.digits(8)}`,
    () => `55119${random.digits(8)}`,
    () => `5255${random.digits(8)}`,
    () => `3531${random.digits(7)}`,
  ];
  for (const make of abroad) pool.push(international(make()));
  for (let index = 0; index < 6; index += 1) pool.push(international(random.pick(abroad)()));
  // Numbers whose country or state cannot be told, and a 10-digit number after a + (international form).
  pool.push(international(`999${random.digits(9)}`), international('1555'), international('12345'), international('0'));
  pool.push(northAmerican('555', random), northAmerican('999', random));
  pool.push(international(`61${random.digits(8)}`), international(`999${random.digits(12)}`));
  return pool;
}

/** Which caller a call has: a few callers call often, most rarely. */
function drawCaller(pool: readonly CallerPlan[], random: Random): CallerPlan {
  const rank = Math.floor(pool.length * random.next() ** 2.2);
  return pool[Math.min(rank, pool.length - 1)] as CallerPlan;
}

const FIXED_OFFSETS = [-720, -570, -210, 0, 330, 345, 525, 840];

function startedAt(ms: number, zone: string, random: Random): string {
  const style = random.int(0, 5);
  const inZone = DateTime.fromMillis(ms, {
    zone: style === 0 ? 'UTC' : style === 1 ? FixedOffsetZone.instance(random.pick(FIXED_OFFSETS)) : zone,
  });
  const text = inZone.toISO({ suppressMilliseconds: true, suppressSeconds: style === 3 }) as string;
  // Some offsets without the colon (`+0530`), which ISO-8601 allows too; some fractions finer than a
  // millisecond, which fall within their millisecond (.999999 is not the next second).
  if (style === 4) return text.replace(/([+-]\d{2}):(\d{2})$/, '$1$2');
  if (style === 5) {
    const finer = random.pick(['999', '5', '000001', '4999']);
    return (DateTime.fromMillis(ms, { zone }).toISO() as string).replace(/\.(\d{3})/, `.$1${finer}`);
  }
  return text;
}

/** Seconds with 0 to 4 decimals, a few on the rounding edges of milliseconds and of hundredths of a minute. */
function seconds(random: Random): number {
  return random.weighted<() => number>([
    [3, () => random.int(0, 900)],
    [3, () => random.int(0, 90_000) / 100],
    [2, () => random.int(0, 900_000) / 1000],
    [2, () => random.int(0, 9_000_000) / 10_000],
    [2, () => (random.int(0, 3000) * 300) / 1000],
    [1, () => random.pick([0, 0.0004, 0.0005, 0.0015, 0.3, 0.005, 1.005, 59.9995, 86_400.5, 1_000_000])],
  ])();
}

interface ZoneMarks {
  readonly switches: readonly number[];
}

function instant(zone: string, marks: ZoneMarks, random: Random): number {
  const day = addDays(DATA_FROM, random.int(0, DATA_DAYS - 1));
  const minutes = (max: number) => random.int(-max, max) * 60_000 + random.int(0, 59) * 1000;
  return random.weighted<() => number>([
    [35, () => Date.UTC(2018, 0, 1) + Math.floor(random.next() * DATA_DAYS * 86_400_000)],
    [
      20,
      () =>
        marks.switches.length === 0
          ? localMidnight(day, zone) + minutes(180)
          : random.pick(marks.switches) + minutes(random.pick([5, 60, 240])),
    ],
    [
      22,
      () => localMidnight(day, zone) + random.pick([0, -1, 1, -1000, minutes(2), minutes(15), random.int(-59, 59) * 1000]),
    ],
    [10, () => dateInZone(day, zone).startOf('week').toMillis() + minutes(30)],
    [8, () => dateInZone(day, zone).startOf('month').toMillis() + minutes(30)],
    [5, () => dateInZone(day, zone).startOf('year').toMillis() + minutes(45)],
  ])();
}

function pathSteps(random: Random): NonNullable<CallRecordInput['path']> {
  const applications = [random.pick(APPLICATIONS), random.pick(APPLICATIONS)];
  const length = random.weighted([
    [1, 0],
    [4, random.int(1, 4)],
    [3, random.int(5, 9)],
  ]);
  return Array.from({ length }, () => {
    const step: Record<string, string | number> = {
      application: random.chance(0.8) ? (applications[0] as string) : (applications[1] as string),
      page: random.pick(PAGES),
      form: random.pick(FORMS),
      item: random.pick(ITEMS),
    };
    for (const counter of ['visits', 'filled', 'nomatch', 'noinput', 'transfer', 'disconnect']) {
      // An absent counter counts 0.
      if (random.chance(0.85)) step[counter] = counter === 'visits' ? random.int(0, 6) : random.int(0, 3);
    }
    return step as unknown as NonNullable<CallRecordInput['path']>[number];
  });
}

function version2Fields(caller: CallerPlan | undefined, random: Random): Partial<CallRecordInput> {
  const fields: Partial<CallRecordInput> = {};
  const some = () => random.chance(0.75);
  if (caller !== undefined) fields.caller = random.pick(caller.forms);
  if (some()) fields.duration_seconds = seconds(random);
  if (some()) fields.transfers = random.int(0, 3);
  if (some()) fields.transfer_seconds = seconds(random);
  if (some()) fields.js_errors = random.int(0, 4);
  if (some()) fields.fetch_errors = random.int(0, 4);
  if (some()) fields.page_loads = random.weighted([
    [1, 0],
    [1, 1],
    [3, random.int(0, 12)],
  ]);
  if (some()) fields.page_load_seconds = random.chance(0.5) ? random.int(0, 20_000) / 1000 : seconds(random);
  if (random.chance(0.5)) fields.path = pathSteps(random);
  return fields;
}

export interface GeneratedData {
  readonly records: readonly CallRecordInput[];
  /**
   * Records sent a second time through the admin API, to be counted once: some as they were, some
   * changed (a call_id seen before is a duplicate whatever it carries, and left as it was).
   */
  readonly resent: readonly CallRecordInput[];
}

const BILLION = 1_000_000_000;

export function generateCalls(prefix: string, random: Random, count: number, pool: readonly CallerPlan[], stories = true): GeneratedData {
  const marks = new Map<string, ZoneMarks>(TIME_ZONES.map((zone) => [zone, { switches: offsetChanges(zone, FROM_MS, TO_MS) }]));
  const records: CallRecordInput[] = [];
  const add = (phone: string, ms: number, zone: string, caller: CallerPlan | undefined, v2: boolean) => {
    const record: CallRecordInput = {
      call_id: `${prefix}-${records.length}`,
      phone: random.chance(0.1) ? `+${phone}` : phone,
      started_at: startedAt(ms, zone, random),
      log_events: random.int(0, 20),
      loops: random.int(0, 5),
      form_items: random.int(0, 12),
      ...(v2 ? version2Fields(caller, random) : {}),
    };
    records.push(record);
  };
  for (let index = 0; index < count; index += 1) {
    const account = random.pick(ACCOUNTS);
    const phone = random.pick(account.phones);
    // Mostly near the owner's own midnights and switches; some near another zone's (numbers move, zones change).
    const zone = random.chance(0.7) ? account.zone : random.pick(TIME_ZONES);
    const v2 = random.chance(0.75);
    const caller = v2 && random.chance(0.85) ? drawCaller(pool, random) : undefined;
    add(phone, instant(zone, marks.get(zone) as ZoneMarks, random), account.zone, caller, v2);
  }
  if (!stories) return { records, resent: [] };
  // One caller, in three forms, calling two numbers of each account on three days of one week.
  for (const account of ACCOUNTS) {
    const caller = pool[0] as CallerPlan;
    const monday = dateInZone(addDays(DATA_FROM, random.int(0, DATA_DAYS - 8)), account.zone).startOf('week');
    const days = [0, 2, 4].map((offset) => compact(monday.plus({ days: offset })));
    days.forEach((day, index) => {
      const phone = account.phones[index % 2] as string;
      add(phone, localMidnight(day, account.zone) + random.int(0, 86_000) * 1000, account.zone, undefined, true);
      (records.at(-1) as { caller?: string }).caller = caller.forms[index % caller.forms.length];
    });
  }
  // Counters and durations at the top of their ranges, three calls on one day: sums beyond 32 bits.
  const big = random.pick(ACCOUNTS);
  const bigDay = addDays(DATA_FROM, random.int(0, DATA_DAYS - 1));
  for (let index = 0; index < 3; index += 1) {
    add(big.phones[0] as string, localMidnight(bigDay, big.zone) + 3_600_000 * (index + 1), big.zone, random.pick(pool), true);
    Object.assign(records.at(-1) as CallRecordInput, {
      log_events: BILLION,
      loops: BILLION,
      form_items: BILLION - index,
      duration_seconds: 1_000_000,
      transfers: BILLION,
      transfer_seconds: 999_999.9995,
      js_errors: BILLION,
      fetch_errors: BILLION - 1,
      page_loads: BILLION,
      page_load_seconds: 1_000_000,
      path: [
        { application: APPLICATIONS[0], page: 'big.vxml', form: 'big', item: 'big', visits: BILLION, filled: BILLION },
        { application: APPLICATIONS[0], page: 'big.vxml', form: 'big', item: 'big', nomatch: BILLION, noinput: BILLION },
        { application: APPLICATIONS[0], page: 'big.vxml', form: 'big', item: 'big', transfer: BILLION, disconnect: BILLION },
      ],
    });
  }
  const resent = Array.from({ length: 30 }, (_, index) => {
    const record = random.pick(records);
    return index % 2 === 0 ? record : { ...record, log_events: record.log_events + 1, duration_seconds: 42, caller: '+447700900999', path: [] };
  });
  return { records, resent };
}
