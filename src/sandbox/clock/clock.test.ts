import request from 'supertest';
import { admin, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { basic } from '../../../test/support/http';
import { addAccount } from '../../../test/support/test-app';

// The fake clock's start (test/support/fake-clock.ts): 2018-02-07T15:00:00Z.
const START = '2018-02-07T15:00:00.000Z';
const DATA_PATH = '/api/events/20180201/20180207/day/ALL';

let running: AdminServer | undefined;

afterEach(async () => {
  await running?.server.close();
  running = undefined;
});

async function sandbox(env: NodeJS.ProcessEnv = { SANDBOX_CLOCK: 'true' }): Promise<AdminServer> {
  running = await startAdminServer(env);
  return running;
}

const advance = (url: string, body: unknown) => admin(url).post('/admin/clock').send(body as object);

async function temporaryCredentials(url: string): Promise<string> {
  const response = await request(url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
  expect(response.status).toBe(200);
  const { login, password } = response.body as { login: string; password: string };
  return basic(login, password);
}

describe('GET /admin/clock', () => {
  test("tells the server's time, unmoved and not movable, on a server started without SANDBOX_CLOCK", async () => {
    const { url } = await sandbox({});
    const response = await admin(url).get('/admin/clock');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ now: START, offset_seconds: 0, movable: false });
  });

  test('tells that the clock is movable with SANDBOX_CLOCK=true', async () => {
    const { url } = await sandbox();
    expect((await admin(url).get('/admin/clock')).body).toEqual({ now: START, offset_seconds: 0, movable: true });
  });

  test('is behind the admin token like the rest of the admin API', async () => {
    const { url } = await sandbox();
    const response = await request(url).get('/admin/clock');
    expect(response.status).toBe(401);
    expect(response.headers['x-error-code']).toBe('IVR_ADMIN_UNAUTHORIZED');
  });
});

describe("the Date header of every answer", () => {
  test("tells the sandbox clock's time, moved with it", async () => {
    const { url } = await sandbox();
    expect((await request(url).get('/healthz')).headers.date).toBe('Wed, 07 Feb 2018 15:00:00 GMT');
    await advance(url, { advance_seconds: 90_000 });
    expect((await request(url).get('/api/events/20180201/20180207/day/ALL')).headers.date).toBe('Thu, 08 Feb 2018 16:00:00 GMT');
  });

  test("tells the system's time on a server started without SANDBOX_CLOCK", async () => {
    const { url } = await sandbox({});
    const { date } = (await request(url).get('/healthz')).headers as { date: string };
    expect(Math.abs(Date.parse(date) - Date.now())).toBeLessThan(24 * 3600 * 1000);
  });
});

describe('POST /admin/clock', () => {
  test('moves the time forward and says by how much in all', async () => {
    const { url } = await sandbox();
    const first = await advance(url, { advance_seconds: 3600 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ now: '2018-02-07T16:00:00.000Z', offset_seconds: 3600, movable: true });
    const second = await advance(url, { advance_seconds: 90_000 });
    expect(second.body).toEqual({ now: '2018-02-08T17:00:00.000Z', offset_seconds: 93_600, movable: true });
    expect((await admin(url).get('/admin/clock')).body).toEqual(second.body);
  });

  test('is refused with 409 naming SANDBOX_CLOCK on a server started without it, and the time does not move', async () => {
    const { url } = await sandbox({});
    const response = await advance(url, { advance_seconds: 60 });
    expect(response.status).toBe(409);
    expect(response.headers['x-error-code']).toBe('IVR_CLOCK_NOT_MOVABLE');
    expect(response.body).toEqual({ error: "this server's clock does not move: start it with SANDBOX_CLOCK=true to move it forward" });
    expect((await admin(url).get('/admin/clock')).body).toEqual({ now: START, offset_seconds: 0, movable: false });
  });

  test.each([
    [{}, 'advance_seconds: is required'],
    [{ advance_seconds: 0 }, 'advance_seconds: must be at least 1: the clock only moves forward'],
    [{ advance_seconds: -60 }, 'advance_seconds: must be at least 1: the clock only moves forward'],
    [{ advance_seconds: 1.5 }, 'advance_seconds: must be a whole number of seconds'],
    [{ advance_seconds: '60' }, 'advance_seconds: must be a whole number of seconds'],
    [{ advance_seconds: 315_360_001 }, 'advance_seconds: must be at most 315360000 (ten years)'],
    [{ advance_seconds: 60, back: true }, 'Unrecognized key: "back"'],
  ])('refuses %j with 400 naming the mistake, and the time does not move', async (body, message) => {
    const { url } = await sandbox();
    const response = await advance(url, body);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(response.body).toEqual({ error: message });
    expect((await admin(url).get('/admin/clock')).body).toEqual({ now: START, offset_seconds: 0, movable: true });
  });

  test('refuses with 400 IVR_CLOCK_LIMIT an advance past a hundred years in all, the clock unchanged and every answer still dated', async () => {
    const { url } = await sandbox();
    const TEN_YEARS = 315_360_000;
    // The report: advances of the largest size, one after another, until one is refused.
    for (let advanced = 1; advanced <= 10; advanced += 1) {
      const moved = await advance(url, { advance_seconds: TEN_YEARS });
      expect(moved.status).toBe(200);
      expect((moved.body as { offset_seconds: number }).offset_seconds).toBe(advanced * TEN_YEARS);
    }
    const full = { now: '2118-01-14T15:00:00.000Z', offset_seconds: 3_153_600_000, movable: true };
    expect((await admin(url).get('/admin/clock')).body).toEqual(full);
    for (const seconds of [TEN_YEARS, 1]) {
      const refused = await advance(url, { advance_seconds: seconds });
      expect(refused.status).toBe(400);
      expect(refused.headers['x-error-code']).toBe('IVR_CLOCK_LIMIT');
      expect(refused.body).toEqual({
        error: `advance_seconds: ${seconds} would move the clock past its limit of 3153600000 seconds (a hundred years) ahead in all: it may still move 0 seconds`,
      });
    }
    const clock = await admin(url).get('/admin/clock');
    expect(clock.status).toBe(200);
    expect(clock.body).toEqual(full);
    const data = await request(url).get(DATA_PATH);
    expect(data.status).toBe(401);
    expect(data.headers.date).toBe('Fri, 14 Jan 2118 15:00:00 GMT');
  });

  test('says how far the clock may still move, and moves exactly that far', async () => {
    const { url } = await sandbox();
    await advance(url, { advance_seconds: 315_360_000 });
    for (let advanced = 2; advanced <= 9; advanced += 1) await advance(url, { advance_seconds: 315_360_000 });
    await advance(url, { advance_seconds: 315_000_000 });
    const refused = await advance(url, { advance_seconds: 360_001 });
    expect(refused.status).toBe(400);
    expect(refused.headers['x-error-code']).toBe('IVR_CLOCK_LIMIT');
    expect(refused.body).toEqual({
      error: 'advance_seconds: 360001 would move the clock past its limit of 3153600000 seconds (a hundred years) ahead in all: it may still move 360000 seconds',
    });
    expect((await admin(url).get('/admin/clock')).body).toMatchObject({ offset_seconds: 3_153_240_000 });
    const last = await advance(url, { advance_seconds: 360_000 });
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ offset_seconds: 3_153_600_000 });
  });

  test('refuses a body that is not JSON with 415', async () => {
    const { url } = await sandbox();
    const response = await admin(url).post('/admin/clock').type('form').send('advance_seconds=60');
    expect(response.status).toBe(415);
    expect(response.headers['x-error-code']).toBe('IVR_UNSUPPORTED_MEDIA_TYPE');
  });

  test('answers 405 with Allow to another method', async () => {
    const { url } = await sandbox();
    const response = await admin(url).put('/admin/clock');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
  });
});

describe('what moving the clock does', () => {
  test('temporary credentials expire once the clock passes CREDENTIAL_TTL_SECONDS without use', async () => {
    const { url, testApp } = await sandbox();
    await addAccount(testApp.store, { phones: ['18005550100'] });
    const credentials = await temporaryCredentials(url);
    expect((await request(url).get(DATA_PATH).set('Authorization', credentials)).status).toBe(200);
    await advance(url, { advance_seconds: 25 * 3600 });
    const expired = await request(url).get(DATA_PATH).set('Authorization', credentials);
    expect(expired.status).toBe(401);
    expect(expired.headers['x-error-code']).toBe('IVR_UNAUTHORIZED');
    expect((await request(url).get(DATA_PATH).set('Authorization', await temporaryCredentials(url))).status).toBe(200);
  });

  test("a rate-limit window rolls over: the 16th login of a window is refused, and allowed once the clock passes the window's end", async () => {
    const { url, testApp } = await sandbox();
    await addAccount(testApp.store);
    for (let attempt = 0; attempt < 15; attempt += 1) await temporaryCredentials(url);
    const refused = await request(url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(refused.status).toBe(429);
    const { 'retry-after': retryAfter } = refused.headers as Record<string, string>;
    await advance(url, { advance_seconds: Number(retryAfter) });
    await temporaryCredentials(url);
  });
});
