import { DateTime } from 'luxon';
import type { CallRecordInput } from '../../domain/call-record';
import type { Tool } from '../../domain/tool';
import type { AdminClient, ImportAnswer } from '../admin-client';
import { CliError } from '../cli-error';
import { planAccount, type AccountPlan, type NumberPlan } from './account-plan';
import type { DayStart, SourceFigures } from './figures';
import { daysOf, REAL_TIME, Source, type SourceAccount, type SourceOptions, type SourceTime } from './source';
import { AccountCallers, callerFiguresOf, synthesizeNumber, type NumberCalls } from './synthesis';
import type { MirrorProgress } from './progress';
import { count, plural } from '../counts';
import { exactness, requestsLine, type AllCallers } from './summary';

const NO_PLAN: NumberPlan = { days: [], callers: 0, unmet: [] };

/** How ALL's distinct callers were planned, for the summary's words on them. */
function allCallers(figures: SourceFigures, allCountsOthers: boolean): AllCallers {
  if (figures.all !== undefined) return 'planned';
  return allCountsOthers ? 'other numbers' : 'one number';
}

/** The account's distinct callers over the range, and how many of ALL's periods have the source's count. */
function accountLine(figures: SourceFigures, account: AccountPlan): string[] {
  if (figures.all === undefined) return [];
  const periods = figures.all.days.length + figures.all.pieces.length + figures.all.weeks.length + figures.all.months.length;
  const missed = account.allUnmet.length;
  const most = Math.max(0, ...account.allUnmet.map((unmet) => unmet.planned - unmet.source));
  const over = `${missed === 0 ? 'all' : count(periods - missed)} of its ${count(periods)} days, weeks within a month, weeks and months`;
  const others = missed === 0 ? '' : `, at most ${count(most)} more over the others`;
  return [`  ALL: ${plural(account.regionOf.length, 'distinct caller')}, the source's count over ${over}${others}`];
}

export interface MirrorRequest {
  readonly source: SourceAccount;
  readonly sourceOptions: SourceOptions;
  readonly phones: readonly string[];
  readonly start: string;
  readonly end: string;
  readonly into: { readonly tool: Tool; readonly login: string };
  readonly dryRun: boolean;
  readonly batchSize: number;
}

/** What of the admin API a mirror uses: the account here, and the import of calls. */
export type MirrorTarget = Pick<AdminClient, 'baseUrl' | 'getAccount' | 'importCalls'>;

interface NumberTotals {
  readonly phone: string;
  calls: number;
  callsWithCaller: number;
  callers: number;
  flowRows: number;
}

export interface MirrorOutcome {
  /** What the run did, for standard output. */
  readonly summary: string;
  /** Figures of the source that the calls could not reproduce, one line each; empty when every one is met. */
  readonly shortfalls: readonly string[];
  /** Records the server refused, as it listed them. */
  readonly rejected: readonly string[];
}

async function targetAccount(admin: MirrorTarget, request: MirrorRequest): Promise<{ timezone: string }> {
  const { tool, login } = request.into;
  const account = await admin.getAccount(tool, login);
  if (account === undefined) {
    throw new CliError(`no account ${tool}/${login} at ${admin.baseUrl}: create it first (ivr-reporting accounts add ${tool} ${login} --password ... --timezone <the source account's>)`);
  }
  const missing = request.phones.filter((phone) => !account.phones.includes(phone));
  if (missing.length > 0) {
    throw new CliError(`${missing.join(', ')} not on ${tool}/${login} at ${admin.baseUrl}: add ${missing.length === 1 ? 'it' : 'them'} first (ivr-reporting phones add ${tool} ${login} ${missing.join(' ')})`);
  }
  return account;
}

/** Each day must start where the source says it does, or its calls would count on another day here. */
function checkTimeZone(days: readonly DayStart[], timeZone: string, into: string): void {
  for (const day of days) {
    const here = DateTime.fromFormat(day.day, 'yyyyMMdd', { zone: timeZone });
    if (here.toSeconds() !== day.startSecond) {
      const there = DateTime.fromSeconds(day.startSecond, { zone: 'UTC' }).toISO({ suppressMilliseconds: true });
      throw new CliError(
        `the source's day ${day.day} starts at ${there}, but in ${timeZone}, the time zone of ${into}, at ${here.toUTC().toISO({ suppressMilliseconds: true })}: ` +
          `give ${into} the source account's time zone (ivr-reporting accounts set ${into.replace('/', ' ')} --timezone ...)`,
      );
    }
  }
}

class Batches {
  private lines: string[] = [];
  readonly written = { inserted: 0, duplicates: 0 };
  readonly rejected: string[] = [];

  constructor(
    private readonly admin: MirrorTarget | undefined,
    private readonly size: number,
    private readonly onWait: (seconds: number) => void,
  ) {}

  async add(record: CallRecordInput): Promise<void> {
    if (this.admin === undefined) return;
    this.lines.push(JSON.stringify(record));
    if (this.lines.length >= this.size) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.admin === undefined || this.lines.length === 0) return;
    const sent = this.lines;
    this.lines = [];
    const answer: ImportAnswer = await this.admin.importCalls(Buffer.from(`${sent.join('\n')}\n`), this.onWait);
    this.written.inserted += answer.inserted;
    this.written.duplicates += answer.duplicates;
    for (const { line, error } of answer.rejected) this.rejected.push(`${error}: ${sent[line - 1] ?? ''}`);
  }
}

/**
 * Reads the numbers' reports at the source, checking every figure as it comes (source.ts), plans the calls
 * that reproduce them, says how many it is about to write, and writes them into the account through the
 * admin API in batches. A dry run stops at the plan: its totals are known without making a call.
 */
export async function mirror(
  request: MirrorRequest,
  admin: MirrorTarget,
  progress: MirrorProgress,
  onImportWait: (seconds: number) => void,
  sourceTime: SourceTime = REAL_TIME,
): Promise<MirrorOutcome> {
  const into = `${request.into.tool}/${request.into.login}`;
  const target = await targetAccount(admin, request);
  const source = new Source(request.source, request.sourceOptions, progress, sourceTime);
  let figures: SourceFigures;
  try {
    figures = await source.read(request.phones, request.start, request.end, (days) => checkTimeZone(days, target.timezone, into));
  } finally {
    progress.finish();
  }

  const account = planAccount(figures.numbers.map(callerFiguresOf), figures.all);
  const callers = new AccountCallers(account.regionOf);
  const plans = figures.numbers.map((number, index) => ({ phone: number.phone, calls: synthesizeNumber(number, account.numbers[index] ?? NO_PLAN, callers) }));
  const batches = new Batches(request.dryRun ? undefined : admin, request.batchSize, onImportWait);
  let totals: NumberTotals[];
  if (request.dryRun) {
    totals = plans.map(({ phone, calls }) => ({ phone, ...calls.planned }));
  } else {
    const planned = plans.reduce((sum, { calls }) => sum + calls.planned.calls, 0);
    progress.announce(`writing ${plural(planned, 'call')} into ${into} at ${admin.baseUrl}`);
    totals = [];
    for (const { phone, calls } of plans) totals.push(await writeNumber(phone, calls, batches));
    await batches.flush();
  }

  const days = daysOf(request.start, request.end).length;
  const all = totals.reduce((sum, number) => sum + number.calls, 0);
  const lines = [
    request.dryRun
      ? `dry run: would write ${plural(all, 'call')} into ${into} at ${admin.baseUrl}, ${request.start}-${request.end} (${plural(days, 'day')})`
      : `mirrored ${plural(totals.length, 'number')}, ${request.start}-${request.end} (${plural(days, 'day')}), into ${into}: ` +
        `${plural(all, 'call')} (${count(batches.written.inserted)} inserted, ${plural(batches.written.duplicates, 'duplicate')})`,
    ...totals.map(
      (number) =>
        `  ${number.phone}: ${plural(number.calls, 'call')}, ${count(number.callsWithCaller)} with a caller, ` +
        `${plural(number.callers, 'distinct caller')}, ${plural(number.flowRows, 'diagnostic-flow row')}`,
    ),
    ...accountLine(figures, account),
    requestsLine(source.limits()),
    ...exactness(request.sourceOptions.stretch, source.unreadPeriods(), allCallers(figures, source.allCountsOthers())),
  ];
  return { summary: `${lines.join('\n')}\n`, shortfalls: plans.flatMap(({ calls }) => calls.shortfalls), rejected: batches.rejected };
}

/** A number's calls made and added to the batches, and what they were. */
async function writeNumber(phone: string, calls: NumberCalls, batches: Batches): Promise<NumberTotals> {
  const totals: NumberTotals = { phone, calls: 0, callsWithCaller: 0, callers: calls.planned.callers, flowRows: 0 };
  for (const record of calls.records) {
    totals.calls += 1;
    if (record.caller !== undefined) totals.callsWithCaller += 1;
    totals.flowRows += record.path?.length ?? 0;
    await batches.add(record);
  }
  return totals;
}
