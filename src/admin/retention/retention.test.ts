import request from 'supertest';
import { admin, postNdjson, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { basic } from '../../../test/support/http';
import { authenticate } from '../../../test/support/reporting';
import { addAccount } from '../../../test/support/test-app';

const PHONE = '15550001';
const line = (callId: string, startedAt: string) => JSON.stringify({ call_id: callId, phone: PHONE, started_at: startedAt, log_events: 1, loops: 0, form_items: 0 });
const CALLS = [line('dec', '2017-12-20T12:00:00Z'), line('jan-1', '2018-01-10T12:00:00Z'), line('jan-2', '2018-01-11T12:00:00Z'), line('feb', '2018-02-05T12:00:00Z')];
const WINTER = '/api/events/20171201/20180228/month/ALL';

let running: AdminServer;

afterEach(() => running.server.close());

async function startWithCalls(env: NodeJS.ProcessEnv): Promise<void> {
  running = await startAdminServer(env);
  await addAccount(running.testApp.store, { phones: [PHONE] });
  expect((await postNdjson(running.url, CALLS)).body).toMatchObject({ inserted: 4 });
}

async function winter(): Promise<unknown> {
  const { login, password } = await authenticate(running.url);
  return (await request(running.url).get(WINTER).set('Authorization', basic(login, password))).body;
}

describe('/admin/retention', () => {
  test("GET tells which months of raw calls are past RETENTION_MONTHS by the server's clock, and drops nothing", async () => {
    // The fake clock is on 7 February 2018: one month kept before it, January.
    await startWithCalls({ RETENTION_MONTHS: '1' });
    const expected = { retention_months: 1, cutoff: '2018-01-01T00:00:00.000Z', dry_run: true, months: [{ first_month: '2017-12', last_month: '2017-12', calls: 1 }] };
    expect((await admin(running.url).get('/admin/retention')).body).toEqual(expected);
    expect((await admin(running.url).get('/admin/retention')).body).toEqual(expected);

    running.testApp.clock.set(Date.parse('2018-03-01T00:00:00Z'));
    expect((await admin(running.url).get('/admin/retention')).body).toEqual({
      ...expected,
      cutoff: '2018-02-01T00:00:00.000Z',
      months: [
        { first_month: '2017-12', last_month: '2017-12', calls: 1 },
        { first_month: '2018-01', last_month: '2018-01', calls: 2 },
      ],
    });
  });

  test('POST drops them: reports over those months answer as before, and their calls imported again are duplicates', async () => {
    await startWithCalls({ RETENTION_MONTHS: '1' });
    const before = await winter();
    running.testApp.clock.set(Date.parse('2018-03-01T00:00:00Z'));
    const dropped = await admin(running.url).post('/admin/retention');
    expect([dropped.status, dropped.body]).toEqual([
      200,
      {
        retention_months: 1,
        cutoff: '2018-02-01T00:00:00.000Z',
        dry_run: false,
        months: [
          { first_month: '2017-12', last_month: '2017-12', calls: 1 },
          { first_month: '2018-01', last_month: '2018-01', calls: 2 },
        ],
      },
    ]);
    expect((await admin(running.url).get('/admin/retention')).body).toMatchObject({ months: [] });
    expect(await winter()).toEqual(before);
    expect((before as { calls: unknown }).calls).toEqual({ '1512086400': 1, '1514764800': 2, '1517443200': 1 });
    expect((await postNdjson(running.url, CALLS)).body).toMatchObject({ inserted: 0, duplicates: 4 });
  });

  test("with SANDBOX_CLOCK reads the system's clock, not the moved one: a year on, the same months go and this month's calls stay", async () => {
    await startWithCalls({ RETENTION_MONTHS: '1', SANDBOX_CLOCK: 'true' });
    const before = await winter();
    expect((await admin(running.url).post('/admin/clock').send({ advance_seconds: 31_536_000 })).body).toMatchObject({ now: '2019-02-07T15:00:00.000Z' });
    const expected = { retention_months: 1, cutoff: '2018-01-01T00:00:00.000Z', dry_run: true, months: [{ first_month: '2017-12', last_month: '2017-12', calls: 1 }] };
    expect((await admin(running.url).get('/admin/retention')).body).toEqual(expected);
    expect((await admin(running.url).post('/admin/retention')).body).toEqual({ ...expected, dry_run: false });
    expect(await running.testApp.store.calls.dropRawCallsBefore(Date.parse('2018-03-01T00:00:00Z'), true)).toEqual([
      { firstMonth: '2018-01', lastMonth: '2018-01', calls: 2 },
      { firstMonth: '2018-02', lastMonth: '2018-02', calls: 1 },
    ]);
    expect(await winter()).toEqual(before);
  });

  test('without RETENTION_MONTHS keeps every call', async () => {
    await startWithCalls({});
    const expected = { retention_months: null, cutoff: null, dry_run: false, months: [] };
    expect((await admin(running.url).post('/admin/retention')).body).toEqual(expected);
    expect((await admin(running.url).get('/admin/retention')).body).toEqual({ ...expected, dry_run: true });
  });
});
