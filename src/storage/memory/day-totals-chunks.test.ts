import { DayTotalsTable, zeroSums } from '../day-totals';
import { daysWithCalls } from '../../../test/support/day-totals';
import { DayTotalsChunks } from './day-totals-chunks';

const call = (durationMs: number) => ({ ...zeroSums(), calls: 1, logEvents: 2, durationMs, pageLoadMs: 7 });

describe('day totals in chunks', () => {
  it('sums the calls of each day, in and across chunks, before 1970 and far off, into the rows of the days asked for', () => {
    const chunks = new DayTotalsChunks();
    const days = [-65, -1, 0, 63, 64, 20_089, 2_932_896];
    for (const day of days) chunks.add(day, call(day + 1000));
    chunks.add(63, call(5));
    const table = new DayTotalsTable(-100, 100);
    chunks.addInto(table);
    expect(daysWithCalls(table).map(({ day, calls, logEvents, durationMs, pageLoadMs }) => ({ day, calls, logEvents, durationMs, pageLoadMs }))).toEqual([
      { day: -65, calls: 1, logEvents: 2, durationMs: 935, pageLoadMs: 7 },
      { day: -1, calls: 1, logEvents: 2, durationMs: 999, pageLoadMs: 7 },
      { day: 0, calls: 1, logEvents: 2, durationMs: 1000, pageLoadMs: 7 },
      { day: 63, calls: 2, logEvents: 4, durationMs: 1068, pageLoadMs: 14 },
      { day: 64, calls: 1, logEvents: 2, durationMs: 1064, pageLoadMs: 7 },
    ]);
    const far = new DayTotalsTable(2_932_896, 2_932_896);
    chunks.addInto(far);
    expect(daysWithCalls(far)).toHaveLength(1);
  });

  it('adds to what the table holds, so that phones merge by reading each into the same table', () => {
    const [first, second] = [new DayTotalsChunks(), new DayTotalsChunks()];
    first.add(10, call(100));
    second.add(10, call(200));
    second.add(11, call(300));
    const table = new DayTotalsTable(10, 11);
    first.addInto(table);
    second.addInto(table);
    expect([...table.column('calls')]).toEqual([2, 1]);
    expect([...table.column('durationMs')]).toEqual([300, 300]);
  });
});
