import { CallImport, readCallRecord } from './call-import';
import type { ImportedCalls } from '../../operations/app-metrics';
import type { AddCallsResult, Store } from '../../storage/store';

const record = (callId: string, phone = '15550001') =>
  Buffer.from(JSON.stringify({ call_id: callId, phone, started_at: '2018-02-07T10:00:00Z', log_events: 1, loops: 0, form_items: 0 }));

/** A store whose `add` answers with `results` in turn, and fails once they are used up. */
function storeAnswering(results: AddCallsResult[]): Store {
  const add = (): Promise<AddCallsResult> => {
    const result = results.shift();
    return result === undefined ? Promise.reject(new Error('the database went away')) : Promise.resolve(result);
  };
  return { calls: { add } } as unknown as Store;
}

function countingInto(totals: { inserted: number; duplicates: number; rejected: number }) {
  return {
    callsImported: ({ inserted, duplicates, rejected }: ImportedCalls) => {
      totals.inserted += inserted;
      totals.duplicates += duplicates;
      totals.rejected += rejected;
    },
  };
}

describe('an import of call records', () => {
  test('counts the records it rejected and the calls it stored even when a later batch fails', async () => {
    const totals = { inserted: 0, duplicates: 0, rejected: 0 };
    const store = storeAnswering([{ inserted: 1, duplicates: 1, unknownPhone: [2] }]);
    const callImport = new CallImport(store, countingInto(totals), readCallRecord, 3, 1);
    callImport.take({ line: 1, bytes: record('c1') });
    callImport.take({ line: 2, bytes: record('c1') });
    callImport.take({ line: 3, bytes: record('c2', '15559999') });
    expect(callImport.batchIsFull).toBe(true);
    await callImport.flush();
    callImport.take({ line: 4, problem: 'not valid JSON' });
    callImport.take({ line: 5, bytes: record('c3') });

    await expect(callImport.finish()).rejects.toThrow('the database went away');
    expect(totals).toEqual({ inserted: 1, duplicates: 1, rejected: 2 });
  });
});
