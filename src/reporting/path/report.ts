import { pathStepCounters, type PathStep } from '../../domain/call-record';
import { compareText } from '../../domain/text-order';
import type { Account } from '../../accounts/account';
import { errors } from '../../errors/catalogue';
import type { CallReads, PhoneScope } from '../../storage/store';
import type { RangeQuery } from '../query/params';

export const FLOW_PATH = '/path/:start/:end/:phone';

/** The bound of specification.md §2.5: the answer of one range stays small enough to build and read. */
export const MAX_FLOW_ENTRIES = 10_000;
export const MAX_ENTRIES_PER_APPLICATION = 1_000;

export type FlowEntry = Omit<PathStep, 'application'>;

/** The diagnostic flow: per application URL (ascending), its form items, most visited first. */
export interface FlowReport {
  readonly applications: ReadonlyArray<readonly [url: string, entries: readonly FlowEntry[]]>;
}

const byVisitsThenNames = (a: FlowEntry, b: FlowEntry): number =>
  b.visits - a.visits || compareText(a.page, b.page) || compareText(a.form, b.form) || compareText(a.item, b.item);

const entryOf = (step: PathStep): FlowEntry => ({
  page: step.page,
  form: step.form,
  item: step.item,
  ...pathStepCounters((counter) => step[counter]),
});

export type FlowReporter = (account: Account, query: RangeQuery, scope: PhoneScope, calls: CallReads) => Promise<FlowReport>;

export function flowReporter(): FlowReporter {
  return async (_account, query, scope, calls) => {
    const steps = await calls.formItemTotals(scope, query.from, query.to, MAX_FLOW_ENTRIES + 1);
    if (steps.length > MAX_FLOW_ENTRIES) {
      throw errors.flowTooLarge(MAX_FLOW_ENTRIES);
    }
    const byApplication = new Map<string, FlowEntry[]>();
    for (const step of steps) {
      const entries = byApplication.get(step.application);
      if (entries === undefined) byApplication.set(step.application, [entryOf(step)]);
      else entries.push(entryOf(step));
    }
    const applications = [...byApplication]
      .sort(([a], [b]) => compareText(a, b))
      .map(([url, entries]) => [url, entries.sort(byVisitsThenNames).slice(0, MAX_ENTRIES_PER_APPLICATION)] as const);
    return { applications };
  };
}
