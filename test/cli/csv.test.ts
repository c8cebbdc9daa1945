import { CsvRecords, splitCsvLine } from '../../src/cli/import/csv';
import { CliError } from '../../src/cli/cli-error';

const HEADER = 'call_id,phone,started_at,log_events,loops,form_items';

describe('splitCsvLine', () => {
  test.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['a,,', ['a', '', '']],
    ['"a,b","say ""hi""",c', ['a,b', 'say "hi"', 'c']],
    ['""', ['']],
    ['', ['']],
  ])('splits %j', (line, fields) => {
    expect(splitCsvLine(line)).toEqual(fields);
  });

  test('reports a quote left open or text after a closing quote', () => {
    expect(splitCsvLine('a,"b')).toEqual({ problem: 'a quoted field is not closed' });
    expect(splitCsvLine('"a"b,c')).toEqual({ problem: 'unexpected text after a quoted field at column 4' });
  });
});

describe('CsvRecords', () => {
  test('names the fields of each row by the header, in any column order, with counts as numbers', () => {
    const records = new CsvRecords('phone, call_id,started_at,form_items,loops,log_events');
    expect(records.toJson('15550001,c1,2018-02-07T10:00:00Z,3,2,1')).toBe(
      '{"phone":"15550001","call_id":"c1","started_at":"2018-02-07T10:00:00Z","form_items":3,"loops":2,"log_events":1}',
    );
  });

  test('leaves a count that is not a number as text, for the server to refuse by name', () => {
    expect(new CsvRecords(HEADER).toJson('c1,15550001,2018-02-07T10:00:00Z,,two,-1')).toBe(
      '{"call_id":"c1","phone":"15550001","started_at":"2018-02-07T10:00:00Z","log_events":"","loops":"two","form_items":-1}',
    );
  });

  test('reports a row with another number of fields than the header', () => {
    expect(new CsvRecords(HEADER).toJson('c1,15550001')).toEqual({ problem: '2 fields where the header has 6' });
  });

  test('refuses a header with a repeated field', () => {
    expect(() => new CsvRecords(`${HEADER},loops`)).toThrow(
      new CliError('CSV header must name the fields call_id, phone, started_at, log_events, loops, form_items once each: repeated loops'),
    );
  });
});
