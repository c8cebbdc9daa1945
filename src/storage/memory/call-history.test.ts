import type { CallRecord } from '../../domain/call-record';
import { CallHistory, emptyStoredCall, NO_CALLER, type StoredCall } from './call-history';
import { FormItemTable } from './form-item-table';

const step = { application: 'app', page: 'p', form: 'f', item: 'i', visits: 2, filled: 1, nomatch: 70_000, noinput: 0, transfer: 0, disconnect: 1_000_000_000 };

function readAll(history: CallHistory, phones: number[]): StoredCall[] {
  const calls: StoredCall[] = [];
  history.forEachCallOf(new Set(phones), (call) => calls.push({ ...call }));
  return calls;
}

describe('call history', () => {
  it('reads back every value, a column widening from bytes to 16 and 32 bits within a block', () => {
    const history = new CallHistory();
    const formItems = new FormItemTable();
    const records: CallRecord[] = [
      { callId: 'a', phone: '1', startedAt: Date.UTC(2025, 0, 1, 12, 0, 0, 999), logEvents: 200, loops: 0, formItems: 1 },
      { callId: 'b', phone: '1', startedAt: Date.UTC(2025, 0, 2), logEvents: 70_000, loops: 300, formItems: 1_000_000_000, durationMs: 5_500, pageLoads: 256 },
      { callId: 'c', phone: '2', startedAt: Date.UTC(2200, 5, 1, 0, 0, 1), logEvents: 1, loops: 1, formItems: 1, caller: '16175550123', path: [step, step] },
    ];
    const phones = [0, 70_000, 1];
    const callers = [NO_CALLER, NO_CALLER, 41];
    const appended = records.map((record, index) => {
      const into = emptyStoredCall();
      history.append(record, phones[index] as number, callers[index] as number, formItems, into);
      return { ...into };
    });

    const read = readAll(history, phones);
    expect(read).toEqual(appended);
    expect(read.map(({ startedAt, logEvents, loops, formItems: items, durationMs, pageLoads }) => [startedAt, logEvents, loops, items, durationMs, pageLoads])).toEqual([
      [Date.UTC(2025, 0, 1, 12), 200, 0, 1, 0, 0],
      [Date.UTC(2025, 0, 2), 70_000, 300, 1_000_000_000, 5_500, 256],
      [Date.UTC(2200, 5, 1, 0, 0, 1), 1, 1, 1, 0, 0],
    ]);
    expect(read.map((call) => [call.phone, call.caller, call.pathStart, call.pathLength])).toEqual([
      [0, NO_CALLER, 0, 0],
      [70_000, NO_CALLER, 0, 0],
      [1, 41, 0, 2],
    ]);
    const entries: number[][] = [];
    history.forEachPathEntry(read[2] as StoredCall, (formItem, counters) => entries.push([formItem, ...counters]));
    expect(entries).toEqual([
      [0, 2, 1, 70_000, 0, 0, 1_000_000_000],
      [0, 2, 1, 70_000, 0, 0, 1_000_000_000],
    ]);
  });

  it('reads only the calls of the phones asked for, in order of arrival, across blocks', () => {
    const history = new CallHistory();
    const formItems = new FormItemTable();
    const into = emptyStoredCall();
    for (let index = 0; index < 10_000; index += 1) {
      history.append({ callId: String(index), phone: '', startedAt: index * 1000, logEvents: index % 7, loops: 0, formItems: 0 }, index % 3, NO_CALLER, formItems, into);
    }
    const read = readAll(history, [1]);
    expect(read).toHaveLength(3_333);
    expect(read.every((call, position) => call.phone === 1 && call.startedAt === (position * 3 + 1) * 1000)).toBe(true);
  });
});
