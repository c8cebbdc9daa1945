import { DayTotalsTable } from '../day-totals';
import { parseDayTotals } from './day-totals-text';
import { daysWithCalls } from '../../../test/support/day-totals';

describe('the days of totals PostgreSQL sends as one text', () => {
  test('reads each day of twelve whole numbers into its row, a day before 1970 negative, sums up to 2^53 exact', () => {
    const table = parseDayTotals('-1,1,0,1,0,0,0,0,0,0,0,0 17569,2,11,21,31,9007199254740991,3,4500,5,6,7,8000', new DayTotalsTable(-1, 17569));
    expect(daysWithCalls(table)).toEqual([
      { day: -1, calls: 1, logEvents: 0, loops: 1, formItems: 0, durationMs: 0, transfers: 0, transferMs: 0, jsErrors: 0, fetchErrors: 0, pageLoads: 0, pageLoadMs: 0 },
      {
        day: 17569,
        calls: 2,
        logEvents: 11,
        loops: 21,
        formItems: 31,
        durationMs: Number.MAX_SAFE_INTEGER,
        transfers: 3,
        transferMs: 4500,
        jsErrors: 5,
        fetchErrors: 6,
        pageLoads: 7,
        pageLoadMs: 8000,
      },
    ]);
    expect(table.column('calls')[1]).toBe(0);
  });

  test('reads no day from an empty text', () => {
    expect(daysWithCalls(parseDayTotals('', new DayTotalsTable(0, 9)))).toEqual([]);
  });
});
