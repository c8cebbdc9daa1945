/**
 * The calls of bench:scaling, each made from its index alone so that any loader can make any batch: call
 * `index` of `calls` starts at an even step through the months (the calls come in time order, as an
 * operator's history or a live feed does), on number `index mod numbers` (every account of 20 numbers gets
 * its share), as a version-2 record with a caller and the counters, and a path of two form items on one call
 * in four. About 330 bytes of NDJSON a record.
 */

export interface ScalingPlan {
  readonly calls: number;
  readonly accounts: number;
  /** Milliseconds since the epoch: the first month's start and the end of the last, UTC. */
  readonly from: number;
  readonly to: number;
}

export const PHONES_PER_ACCOUNT = 20;
export const BATCH_RECORDS = 5_000;
export const ACCOUNT_TOOL = 'dev';
export const ACCOUNT_PASSWORD = 'scaling bench';
/** The accounts' zone: UTC, so that their local months are the months the calls are partitioned by. */
export const ACCOUNT_TIME_ZONE = 'UTC';
const FIRST_PHONE = 18_000_000_000;
const AREA_CODES = ['212', '202', '305', '312', '404', '415', '503', '602', '617', '713'];

export const accountLogin = (account: number): string => `acct-${String(account).padStart(5, '0')}`;

export const phoneOf = (account: number, number: number): string => String(FIRST_PHONE + account * PHONES_PER_ACCOUNT + number);

/** The plan's months: `months` whole UTC months ending where the current month begins. */
export function monthsEndingNow(months: number, now = new Date()): { from: number; to: number } {
  return { from: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1), to: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) };
}

const PATH =
  '[{"application":"https://ivr.example.com/app.vxml","page":"main.vxml","form":"menu","item":"choice","visits":1,"filled":1},' +
  '{"application":"https://ivr.example.com/app.vxml","page":"account.vxml","form":"account","item":"number","visits":';

function record(plan: ScalingPlan, index: number): string {
  const numbers = plan.accounts * PHONES_PER_ACCOUNT;
  const startedAt = new Date(plan.from + Math.floor(((index + 0.5) * (plan.to - plan.from)) / plan.calls)).toISOString();
  const phone = String(FIRST_PHONE + (index % numbers));
  const caller = `1${AREA_CODES[index % AREA_CODES.length] as string}${String((index * 7_919) % 10_000_000).padStart(7, '0')}`;
  const transfers = index % 10 === 0 ? 1 : 0;
  const pathPart = index % 4 === 0 ? `,"path":${PATH}${1 + (index % 2)},"filled":1,"nomatch":${index % 5 === 0 ? 1 : 0}}]` : '';
  return (
    `{"call_id":"s-${index}","phone":"${phone}","started_at":"${startedAt}","log_events":${3 + (index % 9)},"loops":${index % 3},` +
    `"form_items":${1 + (index % 6)},"caller":"${caller}","duration_seconds":${30 + (index % 600)}.5,"transfers":${transfers},` +
    `${transfers === 1 ? `"transfer_seconds":${10 + (index % 50)},` : ''}"js_errors":${index % 50 === 0 ? 1 : 0},"fetch_errors":0,` +
    `"page_loads":${2 + (index % 4)},"page_load_seconds":${(0.2 + (index % 30) / 100).toFixed(2)}${pathPart}}`
  );
}

/** Batch `batch` of the plan as an NDJSON body: calls batch * BATCH_RECORDS on, fewer in the last batch. */
export function batchBody(plan: ScalingPlan, batch: number): { body: string; records: number } {
  const first = batch * BATCH_RECORDS;
  const records = Math.min(BATCH_RECORDS, plan.calls - first);
  const lines: string[] = [];
  for (let index = first; index < first + records; index += 1) lines.push(record(plan, index));
  return { body: `${lines.join('\n')}\n`, records };
}

export const batchCount = (plan: ScalingPlan): number => Math.ceil(plan.calls / BATCH_RECORDS);
