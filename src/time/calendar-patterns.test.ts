import fc from 'fast-check';
import { parseInstantWithOffset } from '../domain/instant';
import { parseSeriesQuery } from '../reporting/query/params';
import { COMPACT_DATE_PATTERN, INSTANT_WITH_OFFSET_PATTERN } from './calendar-patterns';

const compactDate = new RegExp(COMPACT_DATE_PATTERN, 'u');
const instant = new RegExp(INSTANT_WITH_OFFSET_PATTERN, 'u');

function serverTakesDate(text: string): boolean {
  try {
    parseSeriesQuery({ start: text, end: text, period: 'day', phone: 'ALL' }, { maxRangeDays: 1, weekStart: 'monday', timeZone: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

const two = (value: number) => String(value).padStart(2, '0');

describe('the pattern of {start} and {end} in the API reference', () => {
  test('takes exactly the YYYYMMDD dates the path validation takes, for every month and day number of 1965-2404 and 9996-9999', () => {
    const years = [...Array.from({ length: 440 }, (_, index) => 1965 + index), 9996, 9997, 9998, 9999];
    const disagreements: string[] = [];
    for (const year of years) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const text = `${year}${two(month)}${two(day)}`;
          if (compactDate.test(text) !== serverTakesDate(text)) disagreements.push(text);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  test('refuses what is not eight ASCII digits, as the path validation does', () => {
    for (const text of ['2018021', '201802011', '2018-02-01', '２０１８０２０１', '20180201 ', '', '+20180201']) {
      expect({ text, pattern: compactDate.test(text), server: serverTakesDate(text) }).toEqual({ text, pattern: false, server: false });
    }
  });
});

/** Valid instants, then the same with one character changed, inserted or removed. */
const instantTexts = fc
  .record({
    date: fc.date({ min: new Date('1969-12-25T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
    seconds: fc.constantFrom('', ':00', ':59', ':60', ':5', ':07.1', ':07.123456789', ':07.1234567890', ':07.'),
    offset: fc.constantFrom('Z', 'z', '+00:00', '-05:00', '+0530', '+18:59', '+19:00', '-12:60', '+05', '', 'Z0'),
    separator: fc.constantFrom('T', 't', ' '),
  })
  .map(({ date, seconds, offset, separator }) => {
    const [day, time] = date.toISOString().split('T') as [string, string];
    return `${day}${separator}${time.slice(0, 5)}${seconds}${offset}`;
  });

const edits = fc.tuple(instantTexts, fc.nat(40), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom('0', '9', '3', '-', ':', 'T', 'Z', '.', '+', 'x', '٣'));

describe('the pattern of started_at in the API reference', () => {
  test('takes exactly the date-times the call record parser takes', () => {
    fc.assert(
      fc.property(fc.oneof(instantTexts, edits.map(([text, at, edit, character]) => {
        const index = at % (text.length + 1);
        if (edit === 'delete') return text.slice(0, index) + text.slice(index + 1);
        if (edit === 'insert') return text.slice(0, index) + character + text.slice(index);
        return text.slice(0, index) + character + text.slice(index + 1);
      })), (text) => {
        expect({ text, pattern: instant.test(text) }).toEqual({ text, pattern: parseInstantWithOffset(text) !== undefined });
      }),
      { numRuns: 20_000, seed: 20_261_125 },
    );
  });

  test('takes the forms of the documentation and refuses impossible days', () => {
    const takes = (text: string) => instant.test(text);
    expect(['2018-02-07T10:15:00-05:00', '2018-02-07T15:15:00.250Z', '2024-02-29T00:00+0100', '1970-01-01t00:00z'].map(takes)).toEqual([true, true, true, true]);
    expect(['2018-02-30T10:15:00Z', '2100-02-29T00:00Z', '1969-12-31T23:59:59Z', '2018-02-07T10:15:00'].map(takes)).toEqual([false, false, false, false]);
  });
});
