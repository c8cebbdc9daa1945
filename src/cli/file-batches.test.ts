import { CliError } from './cli-error';
import { fileBatches } from './import/file-batches';
import { scratchFolder } from '../../test/support/cli';

let files: Awaited<ReturnType<typeof scratchFolder>>;

beforeEach(async () => {
  files = await scratchFolder();
});

afterEach(async () => {
  await files.remove();
});

/** The batches as plain values, bodies as text; and the error that ended them, if one did. */
async function readBatches(file: string, batchSize: number) {
  const batches: { body: string; fileLines: readonly number[]; rejected: readonly object[] }[] = [];
  try {
    for await (const { body, fileLines, rejected } of fileBatches(file, batchSize)) batches.push({ body: body.toString(), fileLines, rejected });
  } catch (error) {
    return { batches, error };
  }
  return { batches };
}

const HEADER = 'call_id,phone,started_at,log_events,loops,form_items';
const AT = '2018-02-07T10:00:00Z';
const row = (callId: string) => `${callId},15550001,${AT},1,0,0`;
const json = (callId: string) => `{"call_id":"${callId}","phone":"15550001","started_at":"${AT}","log_events":1,"loops":0,"form_items":0}\n`;

describe('fileBatches', () => {
  test('cuts CSV into batches of records with the file line each starts on, rejections beside them', async () => {
    const file = await files.write('calls.csv', [HEADER, row('"c1\nc1"'), 'c2', row('c3'), '', row('c4'), ''].join('\n'));
    expect(await readBatches(file, 2)).toEqual({
      batches: [
        { body: json('c1\\nc1'), fileLines: [2], rejected: [{ line: 4, error: 'CSV: 1 field where the header has 6' }] },
        { body: json('c3') + json('c4'), fileLines: [5, 7], rejected: [] },
      ],
    });
  });

  test('tells NDJSON from CSV by the first character after a byte order mark and blank lines', async () => {
    const ndjson = await files.write('calls.txt', `\ufeff\n \r\n${json('c1')}`);
    const csv = await files.write('calls.data', `\ufeff\n\n${HEADER}\n${row('c1')}\n`);
    expect(await readBatches(ndjson, 10)).toEqual({ batches: [{ body: json('c1'), fileLines: [3], rejected: [] }] });
    expect(await readBatches(csv, 10)).toEqual({ batches: [{ body: json('c1'), fileLines: [4], rejected: [] }] });
  });

  test('refuses a file that looks like a JSON array', async () => {
    const file = await files.write('calls.txt', `\n  [${json('c1')}]`);
    expect(await readBatches(file, 10)).toEqual({
      batches: [],
      error: new CliError('the file looks like a JSON array; import takes NDJSON (one record per line) or CSV'),
    });
  });

  test('reads no batch from a blank file, and will not guess the format of one still blank past its first MiB', async () => {
    const blank = await files.write('blank.txt', '\n \n');
    const longBlank = await files.write('long.txt', `${'\n'.repeat(2 << 20)}${json('c1')}`);
    expect(await readBatches(blank, 10)).toEqual({ batches: [] });
    expect(await readBatches(longBlank, 10)).toEqual({
      batches: [],
      error: new CliError('cannot tell NDJSON from CSV: the first 1048576 bytes are blank; name the file .ndjson or .csv'),
    });
  });

  test('hands on the records read before a stop, then the stop', async () => {
    const file = await files.write('calls.csv', [HEADER, row('c1'), row('c2'), row('"c3" x'), row('c4'), ''].join('\n'));
    expect(await readBatches(file, 10)).toEqual({
      batches: [{ body: json('c1') + json('c2'), fileLines: [2, 3], rejected: [] }],
      error: new CliError(
        'line 4: CSV: text after the closing quote of a field (a quote inside a quoted field is written twice); nothing after it was read',
      ),
    });
  });
});
