import { monthName } from '../../time/months';
import type { AddCallsResult, RawCallMonths, Store } from '../store';
import { emptyStoredCall, NO_CALLER } from './call-history';
import type { MemoryData } from './memory-data';

/** Calls added (a call id seen before is a duplicate, never stored twice) and the reports' reads of their rollups. */
export function memoryCalls(data: MemoryData): Store['calls'] {
  const { callIds, callers, formItems, history, rollups } = data;
  const storedCall = emptyStoredCall();
  return {
    add: (records) => {
      let inserted = 0;
      let duplicates = 0;
      const unknownPhone: number[] = [];
      const changed = new Set<string>();
      records.forEach((record, position) => {
        const owner = data.phoneOwner.get(record.phone);
        const account = owner === undefined ? undefined : data.accounts.get(owner);
        if (account === undefined) {
          unknownPhone.push(position);
        } else if (!callIds.add(record.callId)) {
          duplicates += 1;
        } else {
          const caller = record.caller === undefined ? NO_CALLER : callers.intern(record.caller);
          history.append(record, data.phoneIndexOf(record.phone), caller, formItems, storedCall);
          rollups.add(storedCall, account.timeZone);
          changed.add(account.id);
          inserted += 1;
        }
      });
      for (const accountId of changed) data.dataChanged(accountId);
      const result: AddCallsResult = { inserted, duplicates, unknownPhone };
      return Promise.resolve(result);
    },
    dailyTotals: (scope, from, to) => Promise.resolve(rollups.dailyTotals(data.scopeIndexes(scope), from, to)),
    distinctCallers: (scope, spans) => Promise.resolve(rollups.distinctCallers(data.scopeIndexes(scope), spans)),
    regionTotals: (scope, from, to) => Promise.resolve(rollups.regionTotals(data.scopeIndexes(scope), from, to)),
    formItemTotals: (scope, from, to, limit) => Promise.resolve(rollups.formItemTotals(data.scopeIndexes(scope), from, to, limit)),
    // Calls of any month go into the same columns: nothing to make ahead.
    prepareMonths: () => Promise.resolve(),
    dropRawCallsBefore: (cutoffMs, dryRun) => {
      const dropped = [...data.dropCallsBefore(cutoffMs, dryRun)].sort(([a], [b]) => a - b);
      return Promise.resolve(dropped.map(([month, calls]): RawCallMonths => ({ firstMonth: monthName(month), lastMonth: monthName(month), calls })));
    },
    capRetentionHorizon: (latestMs) => Promise.resolve(data.capRetentionHorizon(latestMs)),
  };
}
