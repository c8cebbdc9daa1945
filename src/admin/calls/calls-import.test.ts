import { request as httpRequest } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { authenticate } from '../../../test/support/reporting';
import { admin, BEARER, postNdjson, startAdminServer, type AdminServer } from '../../../test/support/admin';

let running: AdminServer;

beforeEach(async () => {
  running = await startAdminServer();
  await admin(running.url).put('/admin/accounts/dev/alice').send({ password: 'pw', timezone: 'America/New_York' });
  await admin(running.url).put('/admin/accounts/dev/alice/phones/15550001');
  await admin(running.url).put('/admin/accounts/dev/alice/phones/15550002');
});

afterEach(() => running.server.close());

const record = (callId: string, phone: string, startedAt: string, logEvents = 1, loops = 0, formItems = 0) =>
  JSON.stringify({ call_id: callId, phone, started_at: startedAt, log_events: logEvents, loops, form_items: formItems });

const MIXED_BATCH = [
  record('c1', '15550001', '2018-02-07T10:00:00-05:00', 2, 1, 3),
  record('c2', '15550001', 'yesterday at noon'),
  record('c3', '19990000', '2018-02-07T11:00:00-05:00'),
  '',
  record('c1', '15550001', '2018-02-07T10:00:00-05:00', 2, 1, 3),
  record('c4', '+15550002', '2018-02-08T09:00:00-05:00', 4, 0, 1),
  '{"call_id": "c5",',
  JSON.stringify({ call_id: 'c6', phone: '15550002', started_at: '2018-02-08T10:00:00-05:00', log_events: -1, loops: 0 }),
];

const MIXED_REJECTIONS = [
  { line: 2, error: 'started_at: must be a real ISO-8601 date and time from 1970 with an offset, e.g. 2018-02-07T10:15:00-05:00' },
  { line: 3, error: 'phone 19990000 is on no account' },
  { line: 7, error: expect.stringMatching(/^not valid JSON: /) },
  {
    line: 8,
    error: 'log_events: Too small: expected number to be >=0; form_items: Invalid input: expected number, received undefined',
  },
];

async function eventReport(): Promise<Record<string, Record<string, number>>> {
  const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
  const response = await request(running.url).get('/api/events/20180207/20180208/day/ALL').auth(login, password);
  return response.body as Record<string, Record<string, number>>;
}

const FEB_7 = '1517979600';
const FEB_8 = '1518066000';

describe('POST /admin/calls with NDJSON', () => {
  test('keeps the good records of a mixed batch and reports each other line with its number', async () => {
    const response = await postNdjson(running.url, MIXED_BATCH);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ received: 7, inserted: 2, duplicates: 1, rejected: MIXED_REJECTIONS });

    const report = await eventReport();
    expect(report.calls).toEqual({ [FEB_7]: 1, [FEB_8]: 1 });
    expect(report.log_events).toEqual({ [FEB_7]: 2, [FEB_8]: 4 });
    expect(report.loops).toEqual({ [FEB_7]: 1, [FEB_8]: 0 });
    expect(report.form_items).toEqual({ [FEB_7]: 3, [FEB_8]: 1 });
  });

  test('inserts nothing when the same batch is sent again', async () => {
    await postNdjson(running.url, MIXED_BATCH);
    const again = await postNdjson(running.url, MIXED_BATCH);
    expect(again.body).toEqual({ received: 7, inserted: 0, duplicates: 3, rejected: MIXED_REJECTIONS });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 1, [FEB_8]: 1 });
  });

  test('rejects a call_id with a control character or a lone surrogate and keeps the rest of the batch', async () => {
    const response = await postNdjson(running.url, [
      record('nul\u0000id', '15550001', '2018-02-07T10:00:00-05:00'),
      record('tab\tid', '15550001', '2018-02-07T10:00:00-05:00'),
      record('half\ud800', '15550001', '2018-02-07T10:00:00-05:00'),
      record('c1', '15550001', '2018-02-07T10:00:00-05:00'),
    ]);
    expect(response.status).toBe(200);
    const problem = 'call_id: must be text without control characters or unpaired surrogates';
    expect(response.body).toEqual({
      received: 4,
      inserted: 1,
      duplicates: 0,
      rejected: [
        { line: 1, error: problem },
        { line: 2, error: problem },
        { line: 3, error: problem },
      ],
    });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 1, [FEB_8]: 0 });
  });

  test('accepts CRLF line ends, a trailing newline and an empty body', async () => {
    const crlf = await admin(running.url)
      .post('/admin/calls')
      .set('Content-Type', 'application/x-ndjson')
      .send(`${record('c1', '15550001', '2018-02-07T10:00:00Z')}\r\n${record('c2', '15550001', '2018-02-07T11:00:00Z')}\r\n`);
    expect(crlf.body).toEqual({ received: 2, inserted: 2, duplicates: 0, rejected: [] });
    const empty = await admin(running.url).post('/admin/calls').set('Content-Type', 'application/x-ndjson').send('');
    expect(empty.body).toEqual({ received: 0, inserted: 0, duplicates: 0, rejected: [] });
  });

  test('rejects a line longer than 4 MiB without holding it, and keeps the lines around it', async () => {
    const huge = JSON.stringify({ call_id: 'x'.repeat(4 * 1024 * 1024) });
    const response = await postNdjson(running.url, [
      record('c1', '15550001', '2018-02-07T10:00:00Z'),
      huge,
      record('c2', '15550001', '2018-02-07T11:00:00Z'),
    ]);
    expect(response.body).toEqual({
      received: 3,
      inserted: 2,
      duplicates: 0,
      rejected: [{ line: 2, error: 'record is larger than 4194304 bytes' }],
    });
  });

  test('accepts a version-2 record whose path has 1,000 form items of 500-character texts', async () => {
    const text = (name: string, index: number) => `${name}-${index}-`.padEnd(500, 'x');
    const path = Array.from({ length: 1_000 }, (_, index) => ({
      application: text('https://ivr.example.com/app', index),
      page: text('page', index),
      form: text('form', index),
      item: text('item', index),
      visits: 1,
    }));
    const line = JSON.stringify({ ...JSON.parse(record('c1', '15550001', '2018-02-07T10:00:00Z')), path });
    expect(Buffer.byteLength(line)).toBeGreaterThan(2_000_000);
    const response = await postNdjson(running.url, [line]);
    expect(response.body).toEqual({ received: 1, inserted: 1, duplicates: 0, rejected: [] });
  });

  test('refuses version-2 fields out of their bounds, naming each field, and keeps the version-1 records', async () => {
    const base = JSON.parse(record('c0', '15550001', '2018-02-07T10:00:00Z')) as Record<string, unknown>;
    const v2 = (callId: string, fields: Record<string, unknown>) => JSON.stringify({ ...base, call_id: callId, ...fields });
    const step = { application: 'https://ivr.example.com/start.vxml', page: 'main.vxml', form: 'main_menu', item: 'selection' };
    const response = await postNdjson(running.url, [
      v2('c1', { caller: '+44-20', duration_seconds: -1 }),
      v2('c2', { transfers: 1.5, transfer_seconds: '30', js_errors: -2 }),
      v2('c3', { page_load_seconds: 1_000_001, fetch_errors: null, page_loads: 'many' }),
      v2('c4', { path: [{ ...step, item: '' }, { ...step, visits: -1, colour: 'red' }] }),
      v2('c5', { path: Array.from({ length: 1_001 }, () => step) }),
      v2('c6', { path: 'main_menu' }),
      record('c7', '15550001', '2018-02-07T10:00:00Z'),
    ]);
    expect(response.body).toEqual({
      received: 7,
      inserted: 1,
      duplicates: 0,
      rejected: [
        {
          line: 1,
          error: 'caller: must be a calling number of 1-15 digits, optionally after a +; duration_seconds: Too small: expected number to be >=0',
        },
        {
          line: 2,
          error:
            'transfers: Invalid input: expected int, received number; transfer_seconds: Invalid input: expected number, received string; js_errors: Too small: expected number to be >=0',
        },
        {
          line: 3,
          error:
            'fetch_errors: Invalid input: expected number, received null; page_loads: Invalid input: expected number, received string; page_load_seconds: must be at most 1000000 seconds',
        },
        {
          line: 4,
          error: 'path.0.item: must not be empty; path.1.visits: Too small: expected number to be >=0; path.1: Unrecognized key: "colour"',
        },
        { line: 5, error: 'path: must have at most 1000 entries' },
        { line: 6, error: 'path: Invalid input: expected array, received string' },
      ],
    });
  });

  test('lists the first 100 rejections in line order across batches and counts the rest', async () => {
    const lines = Array.from({ length: 12_000 }, (_, index) => {
      const line = index + 1;
      if (line % 50 === 0) return record(`c${line}`, '19990000', '2018-02-07T10:00:00Z');
      if (line % 50 === 25) return '{}';
      return record(`c${line}`, '15550001', '2018-02-07T10:00:00Z');
    });
    const response = await postNdjson(running.url, lines);
    expect(response.body.received).toBe(12_000);
    expect(response.body.inserted).toBe(12_000 - 480);
    expect(response.body.rejected).toHaveLength(100);
    expect((response.body.rejected as { line: number }[]).map((rejection) => rejection.line)).toEqual(
      Array.from({ length: 100 }, (_, index) => 25 * (index + 1)),
    );
    expect(response.body.rejected[1]).toEqual({ line: 50, error: 'phone 19990000 is on no account' });
    expect(response.body.rejected_more).toBe(380);
  });

  test('counts a body of many batches exactly, keeping the first of two records with one call id however the batches are stored', async () => {
    const lines = Array.from({ length: 4_000 }, (_, index) => {
      const line = index + 1;
      if (line === 3_500) return record('first', '15550001', '2018-02-08T10:00:00-05:00', 9);
      if (line === 2_600) return record('c-unknown', '19990000', '2018-02-07T10:00:00-05:00');
      if (line === 1_300) return '{"call_id": "broken"';
      if (line === 10) return record('first', '15550001', '2018-02-07T10:00:00-05:00', 5);
      return record(`c${line}`, line % 2 === 0 ? '15550001' : '15550002', '2018-02-07T12:00:00-05:00');
    });
    const response = await postNdjson(running.url, lines);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      received: 4_000,
      inserted: 3_997,
      duplicates: 1,
      rejected: [
        { line: 1_300, error: expect.stringMatching(/^not valid JSON: /) },
        { line: 2_600, error: 'phone 19990000 is on no account' },
      ],
    });
    const report = await eventReport();
    expect(report.calls).toEqual({ [FEB_7]: 3_997, [FEB_8]: 0 });
    expect(report.log_events).toEqual({ [FEB_7]: 3_996 + 5, [FEB_8]: 0 });
  });

  test('reads a body sent in chunks that cut records anywhere', async () => {
    const body = `${record('c1', '15550001', '2018-02-07T10:00:00Z')}\n${record('c2', '15550002', '2018-02-07T11:00:00Z')}\n`;
    const url = new URL(running.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const pending = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/admin/calls',
          headers: { authorization: BEARER, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      );
      pending.on('error', reject);
      for (let start = 0; start < body.length; start += 7) pending.write(body.slice(start, start + 7));
      pending.end();
    });
    expect(JSON.parse(answer)).toEqual({ received: 2, inserted: 2, duplicates: 0, rejected: [] });
  });
});

describe('POST /admin/calls with a JSON array', () => {
  test('numbers records by their position in the array', async () => {
    const body = `[${MIXED_BATCH.filter((line) => line !== '' && !line.endsWith(',')).join(',\n ')}]`;
    const response = await admin(running.url).post('/admin/calls').set('Content-Type', 'application/json').send(body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      received: 6,
      inserted: 2,
      duplicates: 1,
      rejected: [MIXED_REJECTIONS[0], MIXED_REJECTIONS[1], { ...MIXED_REJECTIONS[3], line: 6 }],
    });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 1, [FEB_8]: 1 });
  });

  test('keeps the records before a break in the array and reports where it broke', async () => {
    const body = `[${record('c1', '15550001', '2018-02-07T10:00:00Z')}, ${record('c2', '15550001', '2018-02-07T11:00:00Z')}}, {"a": 1}]`;
    const response = await admin(running.url).post('/admin/calls').set('Content-Type', 'application/json').send(body);
    expect(response.body).toEqual({
      received: 2,
      inserted: 1,
      duplicates: 0,
      rejected: [{ line: 2, error: 'unbalanced } in the array; the rest of the body was ignored' }],
    });
  });

  test('keeps every record of the batches before a break far into the array and ignores the rest of the body', async () => {
    const records = Array.from({ length: 3_000 }, (_, index) => record(`c${index + 1}`, '15550001', '2018-02-07T10:00:00-05:00'));
    const body = `[${records.slice(0, 2_700).join(',')}}, ${records.slice(2_700).join(',')}]`;
    const response = await admin(running.url).post('/admin/calls').set('Content-Type', 'application/json').send(body);
    expect(response.body).toEqual({
      received: 2_700,
      inserted: 2_699,
      duplicates: 0,
      rejected: [{ line: 2_700, error: 'unbalanced } in the array; the rest of the body was ignored' }],
    });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 2_699, [FEB_8]: 0 });
  });

  test('refuses a JSON body that is not an array with 400 and stores nothing', async () => {
    const response = await admin(running.url)
      .post('/admin/calls')
      .set('Content-Type', 'application/json')
      .send(record('c1', '15550001', '2018-02-07T10:00:00Z'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'an application/json body must be a JSON array of call records' });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 0, [FEB_8]: 0 });
  });
});

describe('POST /admin/calls Content-Encoding', () => {
  const body = Buffer.from(`${record('c1', '15550001', '2018-02-07T10:00:00-05:00')}\n`);
  const postEncoded = (contentEncoding: string, bytes: Buffer) =>
    admin(running.url).post('/admin/calls').set('Content-Type', 'application/x-ndjson').set('Content-Encoding', contentEncoding).send(bytes);

  test.each([
    ['gzip', 'gzip', gzipSync(body)],
    ['corrupt gzip', 'gzip', gzipSync(body).subarray(0, 12)],
    ['deflate', 'deflate', deflateSync(body)],
    ['br', 'br', brotliCompressSync(body)],
    ['an encoding bomb', 'gzip', gzipSync(Buffer.alloc(16 * 1024 * 1024, '\n'))],
    ['an unknown encoding', 'x-squash', body],
    ['two encodings', 'identity, gzip', gzipSync(body)],
  ])('refuses %s with 415 and stores nothing', async (_name, contentEncoding, bytes) => {
    const response = await postEncoded(contentEncoding, bytes);
    expect(response.status).toBe(415);
    expect(response.headers['x-error-code']).toBe('IVR_UNSUPPORTED_IMPORT_ENCODING');
    expect(response.headers['accept-encoding']).toBe('identity');
    expect(response.body).toEqual({
      error: 'POST /admin/calls takes its body uncompressed: send it without Content-Encoding (or with Content-Encoding: identity)',
    });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 0, [FEB_8]: 0 });
  });

  test('takes Content-Encoding: identity as no encoding', async () => {
    const response = await postEncoded('Identity', body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: 1, inserted: 1, duplicates: 0, rejected: [] });
    expect((await eventReport()).calls).toEqual({ [FEB_7]: 1, [FEB_8]: 0 });
  });
});

describe('POST /admin/calls body types', () => {
  test('refuses another content type with 415 naming the two it takes', async () => {
    const response = await admin(running.url).post('/admin/calls').set('Content-Type', 'text/csv').send('call_id,phone\n');
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ error: 'send the body as application/x-ndjson or application/json (Content-Type)' });
  });
});
