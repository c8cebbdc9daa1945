import request from 'supertest';
import { authenticate } from '../../test/support/reporting';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../test/support/admin';
import { runCli, scratchFolder } from '../../test/support/cli';

let running: AdminServer;
let files: Awaited<ReturnType<typeof scratchFolder>>;

beforeEach(async () => {
  running = await startAdminServer();
  await admin(running.url).put('/admin/accounts/dev/alice').send({ password: 'pw', timezone: 'America/New_York' });
  await admin(running.url).put('/admin/accounts/dev/alice/phones/15550001');
  await admin(running.url).put('/admin/accounts/dev/alice/phones/15550002');
  files = await scratchFolder();
});

afterEach(async () => {
  await running.server.close();
  await files.remove();
});

const importFile = (file: string, ...options: string[]) => runCli(['import', file, '--url', running.url, '--token', ADMIN_TOKEN, ...options]);

const ndjson = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n';

const call = (id: string, phone: string, startedAt: string, logEvents = 1) => ({
  call_id: id,
  phone,
  started_at: startedAt,
  log_events: logEvents,
  loops: 0,
  form_items: 0,
});

async function callsByDay(): Promise<Record<string, number>> {
  const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
  const response = await request(running.url).get('/api/events/20180207/20180208/day/ALL').auth(login, password);
  return response.body.calls as Record<string, number>;
}

async function volumeByDay(): Promise<unknown> {
  const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
  return (await request(running.url).get('/api/volume/20180207/20180208/day/ALL').auth(login, password)).body;
}

const FEB_7 = '1517979600';
const FEB_8 = '1518066000';

describe('ivr-reporting import', () => {
  test('imports an NDJSON file into a running server and exits 0', async () => {
    const file = await files.write(
      'calls.ndjson',
      ndjson(call('c1', '15550001', '2018-02-07T10:00:00-05:00'), call('c2', '15550002', '2018-02-08T10:00:00-05:00')),
    );
    const run = await importFile(file);
    expect(run.stdout).toBe('2 records read: 2 inserted, 0 duplicates, 0 rejected\n');
    expect(run.stderr).toMatch(/^imported 100% {2}2 records {2}[\d,]+ records\/s\n$/);
    expect(run.code).toBe(0);
    expect(await callsByDay()).toEqual({ [FEB_7]: 1, [FEB_8]: 1 });
  });

  test('imports a CSV file with a header row, quoted fields and CRLF line ends, and exits 0', async () => {
    const file = await files.write(
      'calls.csv',
      'call_id,phone,started_at,log_events,loops,form_items\r\n' +
        '"c,1",15550001,2018-02-07T10:00:00-05:00,3,1,2\r\n' +
        '\r\n' +
        'c2,"+15550002",2018-02-08T10:00:00-05:00,4,0,1\r\n',
    );
    const run = await importFile(file);
    expect(run.stdout).toBe('2 records read: 2 inserted, 0 duplicates, 0 rejected\n');
    expect(run.code).toBe(0);
    expect(await callsByDay()).toEqual({ [FEB_7]: 1, [FEB_8]: 1 });
  });

  test('imports a CSV file of version-2 columns in any order, a quoted line break and decimals, listing rejected records by the line they start on', async () => {
    const file = await files.write(
      'calls.csv',
      [
        'phone,call_id,started_at,log_events,loops,form_items,caller,duration_seconds,transfers,transfer_seconds',
        '15550001,c1,2018-02-07T10:00:00-05:00,1,0,0,+447700900123,90,1,30',
        '15550001,"c2',
        'second line",2018-02-07T11:00:00-05:00,1,0,0,,,,',
        '15550002,"c,3",2018-02-08T10:00:00-05:00,2,1,0,6175550123,30.5,,',
        '15550002,c4,2018-02-08T11:00:00-05:00,1,0,0,,ninety,,',
        '15550002,c5,2018-02-08T12:00:00-05:00,1,0',
        '15550001,"c6",2018-02-07T12:00:00-05:00,1,0,0,,,,',
        '',
      ].join('\r\n'),
    );
    const run = await importFile(file, '--batch-size', '2');
    expect(run.stdout).toBe(
      [
        'line 3: call_id: must be text without control characters or unpaired surrogates',
        'line 6: duration_seconds: Invalid input: expected number, received string',
        'line 7: CSV: 5 fields where the header has 10',
        '6 records read: 3 inserted, 0 duplicates, 3 rejected',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(1);
    expect(await volumeByDay()).toEqual({
      calls: { [FEB_7]: 2, [FEB_8]: 1 },
      call_minutes: { [FEB_7]: 1.5, [FEB_8]: 0.51 },
      transfers: { [FEB_7]: 1, [FEB_8]: 0 },
      transfer_minutes: { [FEB_7]: 0.5, [FEB_8]: 0 },
    });
  });

  test('stops a CSV import at text after a closing quote, naming its line and what was sent before', async () => {
    const file = await files.write(
      'calls.csv',
      'call_id,phone,started_at,log_events,loops,form_items\nc1,15550001,2018-02-07T10:00:00-05:00,1,0,0\n"c2" x,15550001,2018-02-07T11:00:00-05:00,1,0,0\n',
    );
    const run = await importFile(file, '--batch-size', '1');
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toMatch(/^imported 100% {2}1 records {2}[\d,]+ records\/s\n/);
    expect(run.stderr.split('\n').slice(1)).toEqual([
      'ivr-reporting: line 3: CSV: text after the closing quote of a field (a quote inside a quoted field is written twice); nothing after it was read',
      `1 records were sent before that; importing ${file} again is safe: records already stored count as duplicates`,
      '',
    ]);
    expect(await callsByDay()).toEqual({ [FEB_7]: 1, [FEB_8]: 0 });
  });

  test('tells a CSV file without a telling extension by its first line', async () => {
    const file = await files.write('calls.txt', 'call_id,phone,started_at,log_events,loops,form_items\nc1,15550001,2018-02-07T10:00:00-05:00,1,0,0\n');
    const run = await importFile(file);
    expect([run.code, run.stdout]).toEqual([0, '1 record read: 1 inserted, 0 duplicates, 0 rejected\n']);
  });

  test('lists rejected lines by their line in the file, across batches, keeps the good ones and exits 1', async () => {
    const lines = [
      JSON.stringify(call('c1', '15550001', '2018-02-07T10:00:00-05:00')),
      JSON.stringify(call('c2', '19990000', '2018-02-07T10:00:00-05:00')),
      '',
      JSON.stringify(call('c3', '15550001', '2018-02-07T11:00:00-05:00')),
      JSON.stringify({ ...call('c4', '15550001', '2018-02-07T11:00:00-05:00'), loops: 'many' }),
      JSON.stringify(call('c1', '15550001', '2018-02-07T10:00:00-05:00')),
      JSON.stringify(call('c5', '15550002', '2018-02-08T10:00:00-05:00')),
    ];
    const file = await files.write('calls.ndjson', lines.join('\n'));
    const run = await importFile(file, '--batch-size', '2');
    expect(run.stdout).toBe(
      [
        'line 2: phone 19990000 is on no account',
        'line 5: loops: Invalid input: expected number, received string',
        '6 records read: 3 inserted, 1 duplicate, 2 rejected',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(1);
    expect(await callsByDay()).toEqual({ [FEB_7]: 2, [FEB_8]: 1 });
  });

  test('inserts nothing when the same file is imported again', async () => {
    const file = await files.write('calls.ndjson', ndjson(call('c1', '15550001', '2018-02-07T10:00:00-05:00')));
    await importFile(file);
    const again = await importFile(file);
    expect([again.code, again.stdout]).toEqual([0, '1 record read: 0 inserted, 1 duplicate, 0 rejected\n']);
  });

  test('refuses a CSV header that does not name the record fields, before sending anything', async () => {
    const file = await files.write('calls.csv', 'id,phone,started_at,log_events,loops\nc1,15550001,2018-02-07T10:00:00-05:00,1,0\n');
    const run = await importFile(file);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'ivr-reporting: CSV header must name the columns call_id, phone, started_at, log_events, loops, form_items, and may name caller, ' +
        'duration_seconds, transfers, transfer_seconds, js_errors, fetch_errors, page_loads, page_load_seconds, each once: ' +
        'unknown "id"; missing call_id, form_items\n',
    );
  });

  test('exits 1 with a message when the server cannot be reached', async () => {
    const file = await files.write('calls.ndjson', ndjson(call('c1', '15550001', '2018-02-07T10:00:00-05:00')));
    const url = running.url;
    await running.server.close();
    const run = await runCli(['import', file, '--url', url, '--token', ADMIN_TOKEN]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`ivr-reporting: cannot reach the server at ${url}: ECONNREFUSED\n`);
    running = await startAdminServer();
  });

  test('exits 1 with a message when the server refuses the token', async () => {
    const file = await files.write('calls.ndjson', ndjson(call('c1', '15550001', '2018-02-07T10:00:00-05:00')));
    const run = await runCli(['import', file, '--url', running.url, '--token', 'not-the-admin-token']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `ivr-reporting: the server at ${running.url} refused the admin token (401): pass --token or set ADMIN_TOKEN to the value it was started with\n`,
    );
  });

  test('takes the server and token from PUBLIC_URL and ADMIN_TOKEN', async () => {
    const file = await files.write('calls.ndjson', ndjson(call('c1', '15550001', '2018-02-07T10:00:00-05:00')));
    const run = await runCli(['import', file], { env: { PUBLIC_URL: `${running.url}/`, ADMIN_TOKEN } });
    expect([run.code, run.stdout]).toEqual([0, '1 record read: 1 inserted, 0 duplicates, 0 rejected\n']);
  });

  test('exits 1 with a message for a file that cannot be read', async () => {
    const run = await importFile('/nonexistent/calls.ndjson');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ivr-reporting: cannot read \/nonexistent\/calls\.ndjson: ENOENT/);
  });
});
