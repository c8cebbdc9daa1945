import { MAX_RECORD_BYTES } from '../admin/calls/raw-record';
import { CliError } from './cli-error';
import { CrlfToLf } from './import/crlf-to-lf';
import { CsvRecords } from './import/csv-records';

type Read = { line: number; json: string } | { line: number; error: string };

/** Everything the reader hands on for a file given in chunks, the JSON as text so that its exact form shows. */
async function readChunks(chunks: readonly Buffer[]): Promise<Read[]> {
  const read: Read[] = [];
  const reader = new CsvRecords((record) => read.push('json' in record ? { line: record.line, json: record.json.toString() } : record));
  for (const chunk of chunks) await reader.push(chunk);
  await reader.end();
  return read;
}

const readCsv = (text: string) => readChunks([Buffer.from(text)]);
const byteByByte = (text: string) => readChunks([...Buffer.from(text)].map((byte) => Buffer.from([byte])));
const lines = (...rows: string[]) => rows.join('\n') + '\n';

const HEADER = 'call_id,phone,started_at,log_events,loops,form_items';
const AT = '2018-02-07T10:00:00Z';
const record = (callId: string, line: number) => ({
  line,
  json: `{"call_id":${JSON.stringify(callId)},"phone":"15550001","started_at":"${AT}","log_events":1,"loops":0,"form_items":0}`,
});
const row = (callId: string) => `${callId},15550001,${AT},1,0,0`;

const HEADER_RULE =
  'CSV header must name the columns call_id, phone, started_at, log_events, loops, form_items, and may name caller, ' +
  'duration_seconds, transfers, transfer_seconds, js_errors, fetch_errors, page_loads, page_load_seconds, each once';

describe('CSV records', () => {
  test('names the cells of each row by the header, in any column order, as JSON in that order', async () => {
    expect(await readCsv(lines('phone, call_id,started_at,form_items,loops,log_events', `15550001,c1,${AT},3,2,1`))).toEqual([
      { line: 2, json: `{"phone":"15550001","call_id":"c1","started_at":"${AT}","form_items":3,"loops":2,"log_events":1}` },
    ]);
  });

  test('takes the version-2 columns, and leaves out the field of an empty optional cell', async () => {
    const header =
      'page_load_seconds,caller,call_id,transfers,phone,duration_seconds,started_at,js_errors,log_events,fetch_errors,loops,page_loads,form_items,transfer_seconds';
    expect(await readCsv(lines(header, `2.5,+447700900123,c1,1,15550001,90.25,${AT},0,4,2,1,3,2,12`, `,,c2,,15550001,,${AT},,1,,0,,0,`))).toEqual([
      {
        line: 2,
        json:
          `{"page_load_seconds":2.5,"caller":"+447700900123","call_id":"c1","transfers":1,"phone":"15550001","duration_seconds":90.25,` +
          `"started_at":"${AT}","js_errors":0,"log_events":4,"fetch_errors":2,"loops":1,"page_loads":3,"form_items":2,"transfer_seconds":12}`,
      },
      { line: 3, json: `{"call_id":"c2","phone":"15550001","started_at":"${AT}","log_events":1,"loops":0,"form_items":0}` },
    ]);
  });

  test('sends an empty required cell, and a numeric cell that is not a number, as text for the server to refuse by name', async () => {
    expect(await readCsv(lines(`${HEADER},duration_seconds,caller`, `c1,15550001,${AT},,two,-1,1.5.2," 3 "`))).toEqual([
      {
        line: 2,
        json: `{"call_id":"c1","phone":"15550001","started_at":"${AT}","log_events":"","loops":"two","form_items":-1,"duration_seconds":"1.5.2","caller":" 3 "}`,
      },
    ]);
  });

  test('keeps phone, caller and call_id as text, leading plus and zeros included, and a quoted number of a numeric column as a number', async () => {
    expect(await readCsv(lines(`${HEADER},caller`, `007,0015550001,${AT}," 2 ",0,0,0044770090012`))).toEqual([
      { line: 2, json: `{"call_id":"007","phone":"0015550001","started_at":"${AT}","log_events":2,"loops":0,"form_items":0,"caller":"0044770090012"}` },
    ]);
  });

  test('reads quoted commas and doubled quotes, trims blanks around unquoted values and around quotes, and keeps blanks inside quotes', async () => {
    expect(await readCsv(lines(HEADER, row('"c,1"'), row('"say ""hi"""'), row('  c3  '), row('  " c4 "  ')))).toEqual([
      record('c,1', 2),
      record('say "hi"', 3),
      record('c3', 4),
      record(' c4 ', 5),
    ]);
  });

  test('reads line breaks inside quotes, each record keeping the line it starts on; a quoted CRLF counts as one line and becomes LF', async () => {
    const file = `${HEADER}\r\n${row('"c1\r\nstill c1"')}\r\n${row('c2')}\r\n${row('"c3\n\nend"')}\n${row('c4')}`;
    expect(await readCsv(file)).toEqual([record('c1\nstill c1', 2), record('c2', 4), record('c3\n\nend', 5), record('c4', 8)]);
  });

  test('drops a byte order mark, ends lines at CRLF, LF or CR alone, mixed, and skips blank lines, counting them', async () => {
    const file = `\ufeff${HEADER}\r\n\r\n  \t\r\n${row('c1')}\r${row('c2')}\n\n${row('c3')}`;
    expect(await readCsv(file)).toEqual([record('c1', 4), record('c2', 5), record('c3', 7)]);
  });

  test('reads the same records and lines whatever the chunk boundaries', async () => {
    const file = `\ufeff${HEADER}\r\n${row('"c1\r\n"')}\r\n\r\n${row('"c,2"')}\r\n${row('c3')}\r`;
    const expected = [record('c1\n', 2), record('c,2', 5), record('c3', 6)];
    expect(await readCsv(file)).toEqual(expected);
    expect(await byteByByte(file)).toEqual(expected);
  });

  test('rejects a row with another number of fields than the header, by its line, and reads on', async () => {
    expect(await readCsv(lines(HEADER, 'c1,15550001', `${row('c2')},extra`, 'c3', row('c4')))).toEqual([
      { line: 2, error: 'CSV: 2 fields where the header has 6' },
      { line: 3, error: 'CSV: 7 fields where the header has 6' },
      { line: 4, error: 'CSV: 1 field where the header has 6' },
      record('c4', 5),
    ]);
  });

  test('rejects a record whose quote is never closed at the line it starts on, after the records before it', async () => {
    expect(await readCsv(lines(HEADER, row('c1'), '"c2,15550001', row('c3')))).toEqual([
      record('c1', 2),
      { line: 3, error: 'CSV: a quoted field is not closed, so the record runs on to the end of the file' },
    ]);
  });

  test('rejects, once, a record with text after a closing quote, which runs on to the next closing quote, and one with a quote inside an unquoted value', async () => {
    const file = lines(HEADER, `c1,"15550001"x,${AT},1,0,0`, row('c2'), `c3,"15550001",${AT},1,0,0`, `c4,155"50001,${AT},1,0,0`, row('c5'));
    expect(await readCsv(file)).toEqual([
      {
        line: 2,
        error:
          'CSV: text after the closing quote of a field (a quote inside a quoted field is written twice), so the record runs on to the next closing quote',
      },
      { line: 5, error: 'CSV: a quote inside a field that does not start with one (quote the whole field and write the quote twice)' },
      record('c5', 6),
    ]);
  });

  test('rejects a record whose JSON would be larger than a record may be, and reads on', async () => {
    // The cells fit the limit; the JSON, with its field names, does not.
    const long = 'x'.repeat(MAX_RECORD_BYTES - 50);
    const read = await readCsv(lines(HEADER, row(long), row('c2')));
    expect(read).toEqual([{ line: 2, error: `record is larger than ${MAX_RECORD_BYTES} bytes` }, record('c2', 3)]);
  });

  test('stops at a record too large to hold, naming the line where it starts', async () => {
    await expect(readCsv(lines(HEADER, row('c1'), `c2,"15550001,${AT},1,0,0`, row('x'.repeat(MAX_RECORD_BYTES))))).rejects.toEqual(
      new CliError(`line 3: a CSV record larger than ${MAX_RECORD_BYTES} bytes starts here (is a quote left open?); nothing after it was read`),
    );
  });

  test('stops at blanks then text after a closing quote, past which csv-parse cannot read on, naming the line', async () => {
    await expect(readCsv(lines(HEADER, row('c1'), row('"c2" x'), row('c3')))).rejects.toEqual(
      new CliError('line 3: CSV: text after the closing quote of a field (a quote inside a quoted field is written twice); nothing after it was read'),
    );
  });

  test('reads no record from an empty file, a blank one, or one with a header alone', async () => {
    expect(await readCsv('')).toEqual([]);
    expect(await readCsv('\n \r\n\n')).toEqual([]);
    expect(await readCsv(`\n${HEADER}\n`)).toEqual([]);
  });

  test('refuses a header with unknown, missing or repeated columns, naming them all', async () => {
    await expect(readCsv(lines('id,phone,started_at,log_events,loops,loops,,caller,,', 'c1,15550001'))).rejects.toEqual(
      new CliError(`${HEADER_RULE}: unknown "id", ""; missing call_id, form_items; repeated loops`),
    );
  });

  test('refuses a header that names path, saying where a call path travels', async () => {
    await expect(readCsv(lines(`${HEADER},path`))).rejects.toEqual(
      new CliError(`${HEADER_RULE}: path is not a CSV column: a call path travels only in NDJSON or JSON`),
    );
  });

  test('refuses a header whose quoting is broken, with its line', async () => {
    await expect(readCsv(`\n"call_id,phone\n${row('c1')}\n`)).rejects.toEqual(
      new CliError('CSV header, line 2: a quoted field is not closed, so the record runs on to the end of the file'),
    );
  });
});

describe('CrlfToLf', () => {
  test('turns each CRLF into LF, also when a chunk ends between the CR and the LF, and keeps a CR alone', () => {
    const lineBreaks = new CrlfToLf();
    const out = [lineBreaks.push(Buffer.from('a\r\nb\r')), lineBreaks.push(Buffer.from('\nc\rd\r')), lineBreaks.push(Buffer.from('\r')), lineBreaks.end()];
    expect(out.map(String)).toEqual(['a\nb', '\nc\rd', '\r', '\r']);
  });
});
