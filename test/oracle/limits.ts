import type { CallRecordInput } from '../../src/domain/call-record';
import type { AccountPlan } from './generate';

/*
 * A purpose-built, deterministic data set for the diagnostic flow's bounds: on 2018-06-01 (UTC) exactly
 * 10,000 distinct form items, one application with 1,001 of them (ties on visits at the cut), nine with
 * 999 and one with 8; on 2018-06-02 one new item and one seen before, so the two days hold 10,001.
 */

export const LIMITS_ACCOUNT: AccountPlan = { tool: 'dev', login: 'limits', password: 'oracle-limits-pw', zone: 'UTC', phones: ['15550100000'] };
export const CAPPED_APPLICATION = 'https://limits.example/a.vxml';
const OTHER_APPLICATIONS = 'bcdefghij'.split('').map((letter) => `https://limits.example/${letter}.vxml`);
const SMALL_APPLICATION = 'https://limits.example/k.vxml';

type Step = NonNullable<CallRecordInput['path']>[number];

const STEPS_PER_CALL = 250;

function stepsFor(application: string, count: number, visits: (index: number) => number): Step[] {
  return Array.from({ length: count }, (_, index) => ({
    application,
    page: `p${index % 3}`,
    form: index % 2 === 0 ? 'f' : 'F',
    item: `item-${String(index).padStart(4, '0')}`,
    visits: visits(index),
    filled: index % 4,
    nomatch: index % 2,
    noinput: 0,
    transfer: index % 7 === 0 ? 1 : 0,
    disconnect: index === 3 ? 1 : 0,
  }));
}

function calls(day: string, steps: readonly Step[], prefix: string): CallRecordInput[] {
  const records: CallRecordInput[] = [];
  for (let from = 0; from < steps.length; from += STEPS_PER_CALL) {
    records.push({
      call_id: `${prefix}-${records.length}`,
      phone: LIMITS_ACCOUNT.phones[0] as string,
      started_at: `${day}T12:00:00Z`,
      log_events: 1,
      loops: 0,
      form_items: 1,
      path: steps.slice(from, from + STEPS_PER_CALL),
    });
  }
  return records;
}

export function limitsCalls(): CallRecordInput[] {
  // Most of the capped application's items have 0 or 1 visits, so the cut falls inside a tie.
  const capped = stepsFor(CAPPED_APPLICATION, 1_001, (index) => (index % 10 === 0 ? 5 : index % 3 === 0 ? 1 : 0));
  const firstDay = [
    ...capped,
    // The same items again in other calls: their counters add up.
    ...capped.slice(0, 40).map((step) => ({ ...step, visits: 2 })),
    ...OTHER_APPLICATIONS.flatMap((application) => stepsFor(application, 999, (index) => index % 6)),
    ...stepsFor(SMALL_APPLICATION, 8, (index) => 8 - index),
  ];
  const secondDay = [
    { ...(capped[7] as Step), visits: 1 },
    { application: SMALL_APPLICATION, page: 'p9', form: 'f', item: 'new-item', visits: 3 },
  ];
  return [...calls('2018-06-01', firstDay, 'limits-1'), ...calls('2018-06-02', secondDay, 'limits-2')];
}
