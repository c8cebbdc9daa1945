import { JsonArrayRecords } from './json-array-records';
import { NdjsonRecords } from './ndjson-records';
import type { RawRecord, RecordSplitter } from './raw-record';
import { AppError } from '../../errors/catalogue';
import { LineSplitter } from '../../streams/line-splitter';

type Seen = { line: number; text: string } | { line: number; problem: string };

function readable(record: RawRecord): Seen {
  return 'bytes' in record ? { line: record.line, text: record.bytes.toString('utf8') } : record;
}

/** Feeds `body` in chunks cut at `cuts` and returns the records seen. */
function split(splitter: RecordSplitter, body: Buffer, cuts: readonly number[] = []): Seen[] {
  const seen: Seen[] = [];
  const take = (record: RawRecord) => seen.push(readable(record));
  let start = 0;
  for (const cut of [...cuts, body.length]) {
    splitter.push(body.subarray(start, cut), take);
    start = cut;
  }
  splitter.end(take);
  return seen;
}

/** The same records whichever single byte the body is cut at. */
function expectSameAtEveryCut(create: () => RecordSplitter, body: string, expected: readonly Seen[]): void {
  const bytes = Buffer.from(body);
  for (let cut = 0; cut <= bytes.length; cut += 1) {
    expect({ cut, seen: split(create(), bytes, [cut]) }).toEqual({ cut, seen: expected });
  }
}

describe('LineSplitter', () => {
  function lines(body: Buffer | string, max = 100, cuts: readonly number[] = []) {
    const splitter = new LineSplitter(max);
    const seen: [number, string | undefined][] = [];
    const take = (number: number, bytes: Buffer | undefined) => seen.push([number, bytes?.toString('utf8')]);
    const data = Buffer.from(body);
    let start = 0;
    for (const cut of [...cuts, data.length]) {
      splitter.push(data.subarray(start, cut), take);
      start = cut;
    }
    splitter.end(take);
    return seen;
  }

  test('numbers lines from 1, blank ones included, and ends the last one without a line break', () => {
    expect(lines('a\n\r\nb\r\nc')).toEqual([
      [1, 'a'],
      [2, ''],
      [3, 'b'],
      [4, 'c'],
    ]);
  });

  test('drops a UTF-8 byte order mark at the start, even when it arrives byte by byte', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é\nb')]);
    expect(lines(body, 100, [1, 2, 3])).toEqual([
      [1, 'é'],
      [2, 'b'],
    ]);
  });

  test('reports a line over the limit without its bytes and goes on with the next', () => {
    expect(lines('12345\n123456\n1234567\r\n12', 6, [3, 9])).toEqual([
      [1, '12345'],
      [2, '123456'],
      [3, undefined],
      [4, '12'],
    ]);
  });

  test('reads lines at and past the limit, with and without \\r, alike whether a line comes whole in a chunk or cut anywhere', () => {
    const body = '123456\n123456\r\n1234567\n1234567\r\n\r\n\n12345\r\r\n';
    const expected = [
      [1, '123456'],
      [2, '123456'],
      [3, undefined],
      [4, undefined],
      [5, ''],
      [6, ''],
      [7, '12345\r'],
    ];
    for (let first = 0; first <= body.length; first += 1) {
      for (const second of [first, first + 1, first + 7]) {
        expect({ first, second, seen: lines(body, 6, [first, Math.min(second, body.length)]) }).toEqual({ first, second, seen: expected });
      }
    }
  });
});

describe('NDJSON records', () => {
  test('gives each non-blank line with its number, wherever the chunks are cut', () => {
    expectSameAtEveryCut(() => new NdjsonRecords(64), '{"a":1}\n\n  \n{"b":"x\\ny"}\r\n{"c":3}', [
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":"x\\ny"}' },
      { line: 5, text: '{"c":3}' },
    ]);
  });

  test('turns a line over the limit into a problem', () => {
    expect(split(new NdjsonRecords(8), Buffer.from('{"a":1}\n{"a":"123456"}\n'))).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 2, problem: 'record is larger than 8 bytes' },
    ]);
  });
});

describe('JSON array records', () => {
  test('cuts the elements at their top-level commas only, wherever the chunks are cut', () => {
    const body = ' [ {"a":"x,]}\\"y","b":[1,{"c":2}]} ,\n{"d":"\\\\"},[3]] \n';
    expectSameAtEveryCut(() => new JsonArrayRecords(64), body, [
      { line: 1, text: ' {"a":"x,]}\\"y","b":[1,{"c":2}]} ' },
      { line: 2, text: '\n{"d":"\\\\"}' },
      { line: 3, text: '[3]' },
    ]);
  });

  test('gives nothing for an empty array', () => {
    expect(split(new JsonArrayRecords(64), Buffer.from('\n[ ]\n'))).toEqual([]);
  });

  test('reports empty elements and elements over the limit as problems', () => {
    expect(split(new JsonArrayRecords(8), Buffer.from('[1,,{"a":"123456789"},2,]'))).toEqual([
      { line: 1, text: '1' },
      { line: 2, problem: 'empty record: a comma with no record before it' },
      { line: 3, problem: 'record is larger than 8 bytes' },
      { line: 4, text: '2' },
      { line: 5, problem: 'empty record: a comma with no record after it' },
    ]);
  });

  test('reports an array left open or followed by more text, once', () => {
    expect(split(new JsonArrayRecords(64), Buffer.from('[1,{"a":2'))).toEqual([
      { line: 1, text: '1' },
      { line: 2, problem: 'the body ended before the array was closed with ]; the rest of the body was ignored' },
    ]);
    expect(split(new JsonArrayRecords(64), Buffer.from('[1] [2] [3]'))).toEqual([
      { line: 1, text: '1' },
      { line: 2, problem: 'unexpected text after the closing ] of the array; the rest of the body was ignored' },
    ]);
  });

  test('refuses a body that does not start with [ (after whitespace) with a 400', () => {
    expect(() => split(new JsonArrayRecords(64), Buffer.from('  {"a":1}'))).toThrow(
      new AppError('IVR_BAD_REQUEST', 400, 'an application/json body must be a JSON array of call records'),
    );
    expect(() => split(new JsonArrayRecords(64), Buffer.from('   '))).toThrow(AppError);
  });
});
