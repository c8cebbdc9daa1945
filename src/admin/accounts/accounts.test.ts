import request from 'supertest';
import { authenticate, call } from '../../../test/support/reporting';
import { admin, postNdjson, startAdminServer, type AdminServer } from '../../../test/support/admin';
import { documentOf, operationById } from '../../../test/support/openapi';

let running: AdminServer;

const HOUR_MS = 3_600_000;

beforeEach(async () => {
  running = await startAdminServer({ DEFAULT_TIMEZONE: 'America/Chicago' }, { hashing: 'scrypt' });
});

afterEach(() => running.server.close());

const putAccount = (path: string, body: object) => admin(running.url).put(path).send(body);

describe('PUT /admin/accounts/{tool}/{login}', () => {
  test('creates an account with 201, a Location and no secret in the answer', async () => {
    const response = await putAccount('/admin/accounts/fuse/alice', { password: 'a long password', timezone: 'America/New_York' });
    expect(response.status).toBe(201);
    expect(response.headers.location).toBe('/admin/accounts/fuse/alice');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ tool: 'fuse', login: 'alice', active: true, timezone: 'America/New_York', phones: [] });
    await authenticate(running.url, { tool: 'fuse', login: 'alice', password: 'a long password' });
  });

  test('gives a new account the default time zone and stores only a hash of the password', async () => {
    const response = await putAccount('/admin/accounts/dev/bob', { password: 'pw-bob' });
    expect(response.body).toEqual({ tool: 'dev', login: 'bob', active: true, timezone: 'America/Chicago', phones: [] });
    const stored = await running.testApp.store.accounts.find('dev:bob');
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain('pw-bob');
  });

  test('refuses to create an account without a password', async () => {
    const response = await putAccount('/admin/accounts/dev/alice', { active: true });
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_MISSING_FIELD');
    expect(response.body).toEqual({ error: 'password is required' });
    expect(await running.testApp.store.accounts.list()).toEqual([]);
  });

  test('updates an existing account with 200 and keeps what the body leaves out', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'first password', timezone: 'Europe/Paris' });
    const response = await putAccount('/admin/accounts/dev/alice', { password: 'second password' });
    expect(response.status).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toEqual({ tool: 'dev', login: 'alice', active: true, timezone: 'Europe/Paris', phones: [] });
    await authenticate(running.url, { login: 'alice', password: 'second password' });
    const old = await request(running.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'first password' });
    expect(old.status).toBe(401);
  });

  test('answers 201 to exactly one of several PUTs creating the same account at once, 200 to the others', async () => {
    const responses = await Promise.all(
      ['pw-1', 'pw-2', 'pw-3'].map((password) => putAccount('/admin/accounts/dev/carol', { password })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 201]);
    expect(await running.testApp.store.accounts.list()).toHaveLength(1);
  });

  test('keeps both of two PUTs at once that change different fields', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'first password' });
    const [deactivated, renewed] = await Promise.all([
      putAccount('/admin/accounts/dev/alice', { active: false }),
      putAccount('/admin/accounts/dev/alice', { password: 'second password', timezone: 'Asia/Tokyo' }),
    ]);
    expect([deactivated.status, renewed.status]).toEqual([200, 200]);
    const shown = await admin(running.url).get('/admin/accounts/dev/alice');
    expect(shown.body).toEqual({ tool: 'dev', login: 'alice', active: false, timezone: 'Asia/Tokyo', phones: [] });
    const login = await request(running.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'second password' });
    expect(login.status).toBe(401);
  });

  test('returns 400 for a body over 16 kB, as the reporting API does', async () => {
    const response = await putAccount('/admin/accounts/dev/alice', { password: 'p'.repeat(20_000) });
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_BODY_TOO_LARGE');
    expect(response.body).toEqual({ error: 'request body is larger than 16384 bytes' });
    expect(await running.testApp.store.accounts.list()).toEqual([]);
  });

  test('accepts an empty body as an update that changes nothing', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw' });
    const response = await admin(running.url).put('/admin/accounts/dev/alice');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ tool: 'dev', login: 'alice', active: true, timezone: 'America/Chicago', phones: [] });
  });

  test('refuses a JSON body of null, which is a body and not an object', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw' });
    const response = await admin(running.url).put('/admin/accounts/dev/alice').set('Content-Type', 'application/json').send('null');
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(response.body).toEqual({ error: 'Invalid input: expected object, received null' });
  });

  test('counts a password length in characters, as the API reference does, not in UTF-16 units', async () => {
    const fits = await putAccount('/admin/accounts/dev/emoji', { password: '😀'.repeat(1024) });
    expect(fits.status).toBe(201);
    const over = await putAccount('/admin/accounts/dev/emoji', { password: '😀'.repeat(1025) });
    expect(over.status).toBe(400);
    expect(over.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(over.body).toEqual({ error: 'password: must be at most 1024 characters' });
  });

  test('treats the same login under two tools as two accounts', async () => {
    expect((await putAccount('/admin/accounts/dev/alice', { password: 'pw' })).status).toBe(201);
    expect((await putAccount('/admin/accounts/fuseplus/alice', { password: 'pw' })).status).toBe(201);
    expect((await admin(running.url).get('/admin/accounts')).body.accounts).toHaveLength(2);
  });

  test.each([
    [{ password: 'pw', timezone: 'Mars/Olympus' }, 'timezone: must be an IANA time zone such as UTC or America/New_York'],
    [{ password: 'pw', active: 'yes' }, 'active: must be true or false'],
    [{ password: '' }, 'password: must not be empty'],
    [{ password: 'pw', role: 'admin' }, 'Unrecognized key: "role"'],
    [['pw'], 'Invalid input: expected object, received array'],
  ])('refuses %j with 400 naming the field', async (body, message) => {
    const response = await putAccount('/admin/accounts/dev/alice', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
  });

  test('refuses an unknown tool with the message of /api/auth', async () => {
    const response = await putAccount('/admin/accounts/excel/alice', { password: 'pw' });
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_TOOL');
    expect(response.body).toEqual({ error: 'Invalid tool parameter. Allowed values are: dev, fuse, insight, fuseplus' });
  });

  test('refuses a path part that is not valid percent-encoding with 400 naming it', async () => {
    const response = await admin(running.url).put('/admin/accounts/dev/%E0%A4%A').send({ password: 'pw' });
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_MALFORMED_PATH_PART');
    expect(response.body).toEqual({ error: 'path part %E0%A4%A is not valid percent-encoded UTF-8' });
  });

  test("takes exactly the logins the document's {login} pattern takes, for each character of U+0000-U+00FF and a few beyond", async () => {
    const parameter = (operationById(documentOf(running.testApp), 'getAccount').operation.parameters as { name: string; schema: { pattern: string } }[])
      .find(({ name }) => name === 'login');
    const pattern = new RegExp(parameter?.schema.pattern ?? '', 'u');
    const characters = [...Array.from({ length: 0x100 }, (_, code) => String.fromCodePoint(code)), '\u2028', '\uFEFF', '\uFFFE', '\u{1F600}', '\u{10FFFF}'];
    const disagreements: string[] = [];
    for (const character of characters) {
      const login = `a${character}b`;
      const response = await admin(running.url).get(`/admin/accounts/dev/${encodeURIComponent(login)}`);
      const taken = response.status === 404 && response.headers['x-error-code'] === 'IVR_ACCOUNT_NOT_FOUND';
      const refused = response.status === 400 && response.headers['x-error-code'] === 'IVR_INVALID_PARAMETER';
      if (!taken && !refused) disagreements.push(`U+${character.codePointAt(0)?.toString(16)}: ${response.status}`);
      else if (taken !== pattern.test(login)) disagreements.push(`U+${character.codePointAt(0)?.toString(16)}: server ${taken}, pattern ${!taken}`);
    }
    expect(disagreements).toEqual([]);
  });

  test('refuses a login with an unpaired surrogate, which a path cannot carry, as a path part that is not UTF-8', async () => {
    const response = await admin(running.url).get('/admin/accounts/dev/a%ED%A0%80b');
    expect({ status: response.status, code: response.headers['x-error-code'] }).toEqual({ status: 400, code: 'IVR_MALFORMED_PATH_PART' });
  });

  test('refuses a corrupt gzip JSON body with 400 naming the Content-Encoding', async () => {
    const response = await admin(running.url)
      .put('/admin/accounts/dev/alice')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(Buffer.from('{"password":"pw"}'));
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_CORRUPT_CONTENT_ENCODING');
    expect(response.body).toEqual({ error: 'request body is not valid gzip data, as its Content-Encoding says: it is corrupt or cut short' });
  });

  test('refuses a body that is not JSON with 415 and malformed JSON with 400', async () => {
    const form = await admin(running.url).put('/admin/accounts/dev/alice').type('form').send({ password: 'pw' });
    expect(form.status).toBe(415);
    expect(form.headers['x-error-code']).toBe('IVR_UNSUPPORTED_MEDIA_TYPE');
    expect(form.body).toEqual({ error: 'send the body as application/json (Content-Type)' });
    const malformed = await admin(running.url).put('/admin/accounts/dev/alice').set('Content-Type', 'application/json').send('{"password":');
    expect(malformed.status).toBe(400);
    expect(malformed.headers['x-error-code']).toBe('IVR_MALFORMED_BODY');
    expect(malformed.body).toEqual({ error: 'request body could not be parsed' });
  });
});

describe('deactivation', () => {
  test('ends the live temporary credentials of the account at once and for good: reactivation needs a new login', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw' });
    await admin(running.url).put('/admin/accounts/dev/alice/phones/15550001');
    const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
    const events = () => request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(login, password);
    expect((await events()).status).toBe(200);

    const deactivated = await putAccount('/admin/accounts/dev/alice', { active: false });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);

    const refused = await events();
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="IVR reporting API"');
    const login401 = await request(running.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'pw' });
    expect(login401.status).toBe(401);

    await putAccount('/admin/accounts/dev/alice', { active: true });
    const stillRefused = await events();
    expect(stillRefused.status).toBe(401);
    expect(stillRefused.headers['x-error-code']).toBe('IVR_UNAUTHORIZED');
    expect(stillRefused.body).toEqual({ error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth' });
    const fresh = await authenticate(running.url, { login: 'alice', password: 'pw' });
    expect((await request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(fresh.login, fresh.password)).status).toBe(200);
  });
});

describe('revoking temporary credentials', () => {
  async function signedIn() {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw', timezone: 'Asia/Tokyo' });
    await admin(running.url).put('/admin/accounts/dev/alice/phones/15550001');
    const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
    const events = () => request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(login, password);
    expect((await events()).status).toBe(200);
    return events;
  }

  test('a new password ends the credentials issued under the old one at once; the new password gets working ones', async () => {
    const events = await signedIn();
    expect((await putAccount('/admin/accounts/dev/alice', { password: 'new password' })).status).toBe(200);

    const refused = await events();
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="IVR reporting API"');
    const fresh = await authenticate(running.url, { login: 'alice', password: 'new password' });
    expect((await request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(fresh.login, fresh.password)).status).toBe(200);
  });

  test('a change without a password keeps the credentials working', async () => {
    const events = await signedIn();
    await putAccount('/admin/accounts/dev/alice', { timezone: 'Europe/Paris' });
    expect((await events()).status).toBe(200);
  });

  test('DELETE /admin/accounts/{tool}/{login}/credentials ends them at once and changes nothing else', async () => {
    const events = await signedIn();
    const revoked = await admin(running.url).delete('/admin/accounts/dev/alice/credentials');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ tool: 'dev', login: 'alice', active: true, timezone: 'Asia/Tokyo', phones: ['15550001'] });
    expect((await events()).status).toBe(401);
    const again = await authenticate(running.url, { login: 'alice', password: 'pw' });
    expect((await request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(again.login, again.password)).status).toBe(200);
  });

  test('DELETE .../credentials of an unknown account is 404, and other methods are 405', async () => {
    const missing = await admin(running.url).delete('/admin/accounts/dev/nobody/credentials');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-error-code']).toBe('IVR_ACCOUNT_NOT_FOUND');
    expect(missing.body).toEqual({ error: 'no account dev/nobody' });
    const get = await admin(running.url).get('/admin/accounts/dev/nobody/credentials');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('DELETE');
  });

  test('POST .../credentials/expire expires them now and answers with those that worked, soonest to expire first: their logins and expiries, never a password', async () => {
    const { clock } = running.testApp;
    const issuedAt = clock.now();
    await signedIn();
    const stale = await authenticate(running.url, { login: 'alice', password: 'pw' });
    clock.advance(25 * HOUR_MS);
    const first = await authenticate(running.url, { login: 'alice', password: 'pw' });
    clock.advance(HOUR_MS);
    const second = await authenticate(running.url, { login: 'alice', password: 'pw' });
    await putAccount('/admin/accounts/dev/bob', { password: 'pw-bob' });
    const bobs = await authenticate(running.url, { login: 'bob', password: 'pw-bob' });
    const events = (pair: { login: string; password: string }) => request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(pair.login, pair.password);

    const expired = await admin(running.url).post('/admin/accounts/dev/alice/credentials/expire');
    expect(expired.status).toBe(200);
    expect(expired.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(expired.body).toEqual({
      expired: 2,
      credentials: [
        { login: first.login, expires_at: new Date(issuedAt + 49 * HOUR_MS).toISOString() },
        { login: second.login, expires_at: new Date(issuedAt + 50 * HOUR_MS).toISOString() },
      ],
    });
    expect(JSON.stringify(expired.body)).not.toContain(stale.login);

    for (const pair of [first, second]) {
      const refused = await events(pair);
      expect(refused.status).toBe(401);
      expect(refused.headers['x-error-code']).toBe('IVR_UNAUTHORIZED');
      expect(refused.body).toEqual({ error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth' });
    }
    expect((await events(bobs)).status).toBe(200);
    const again = await authenticate(running.url, { login: 'alice', password: 'pw' });
    expect((await events(again)).status).toBe(200);
  });

  test('POST .../credentials/expire of an account without working credentials is 200 with none: never signed in, or expired already', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw' });
    const none = await admin(running.url).post('/admin/accounts/dev/alice/credentials/expire');
    expect(none.status).toBe(200);
    expect(none.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(none.body).toEqual({ expired: 0, credentials: [] });

    await authenticate(running.url, { login: 'alice', password: 'pw' });
    expect((await admin(running.url).post('/admin/accounts/dev/alice/credentials/expire')).body).toMatchObject({ expired: 1 });
    const again = await admin(running.url).post('/admin/accounts/dev/alice/credentials/expire');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ expired: 0, credentials: [] });
  });

  test('POST .../credentials/expire of an unknown account is 404, and other methods are 405', async () => {
    const missing = await admin(running.url).post('/admin/accounts/dev/nobody/credentials/expire');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-error-code']).toBe('IVR_ACCOUNT_NOT_FOUND');
    expect(missing.body).toEqual({ error: 'no account dev/nobody' });
    const get = await admin(running.url).get('/admin/accounts/dev/alice/credentials/expire');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });
});

describe('time zone change', () => {
  test('re-buckets the account calls into the local days of its new time zone', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw', timezone: 'America/New_York' });
    await admin(running.url).put('/admin/accounts/dev/alice/phones/15550001');
    // 03:30 UTC on 8 February: the evening of the 7th in New York, midday of the 8th in Tokyo.
    await postNdjson(running.url, [JSON.stringify(call('15550001', '2018-02-08T03:30:00Z', { log_events: 3 }))]);
    const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
    const byDay = async () =>
      (await request(running.url).get('/api/events/20180207/20180208/day/ALL').auth(login, password)).body.calls as Record<string, number>;

    expect(await byDay()).toEqual({ '1517979600': 1, '1518066000': 0 });
    await putAccount('/admin/accounts/dev/alice', { timezone: 'Asia/Tokyo' });
    expect(await byDay()).toEqual({ '1517929200': 0, '1518015600': 1 });
  });
});

describe('GET /admin/accounts', () => {
  test('lists every account by tool then login, with its numbers and without secrets', async () => {
    await putAccount('/admin/accounts/fuse/zed', { password: 'pw' });
    await putAccount('/admin/accounts/dev/bob', { password: 'pw', active: false });
    await putAccount('/admin/accounts/dev/alice', { password: 'pw', timezone: 'UTC' });
    await admin(running.url).put('/admin/accounts/dev/alice/phones/15550002');
    await admin(running.url).put('/admin/accounts/dev/alice/phones/+15550001');
    const response = await admin(running.url).get('/admin/accounts');
    expect(response.status).toBe(200);
    expect(response.text).toBe(
      JSON.stringify({
        accounts: [
          { tool: 'dev', login: 'alice', active: true, timezone: 'UTC', phones: ['15550001', '15550002'] },
          { tool: 'dev', login: 'bob', active: false, timezone: 'America/Chicago', phones: [] },
          { tool: 'fuse', login: 'zed', active: true, timezone: 'America/Chicago', phones: [] },
        ],
      }),
    );
  });

  test('shows one account, and 404 for an account that does not exist', async () => {
    await putAccount('/admin/accounts/insight/carol', { password: 'pw' });
    const found = await admin(running.url).get('/admin/accounts/insight/carol');
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ tool: 'insight', login: 'carol', active: true, timezone: 'America/Chicago', phones: [] });
    const missing = await admin(running.url).get('/admin/accounts/insight/dave');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-error-code']).toBe('IVR_ACCOUNT_NOT_FOUND');
    expect(missing.body).toEqual({ error: 'no account insight/dave' });
  });
});

describe('DELETE /admin/accounts/{tool}/{login}', () => {
  const february = (phone: string) => `/api/events/20180201/20180228/month/${phone}`;

  test('deletes the account with 204: its credentials and its login get 401 at once, its numbers are free, their calls gone', async () => {
    await putAccount('/admin/accounts/dev/alice', { password: 'pw', timezone: 'America/New_York' });
    await admin(running.url).put('/admin/accounts/dev/alice/phones/15550001');
    await admin(running.url).put('/admin/accounts/dev/alice/phones/15550002');
    await putAccount('/admin/accounts/dev/bob', { password: 'pw-bob' });
    await admin(running.url).put('/admin/accounts/dev/bob/phones/15550003');
    const aliceCall = call('15550001', '2018-02-07T10:00:00-05:00');
    await postNdjson(running.url, [aliceCall, call('15550002', '2018-02-07T11:00:00-05:00'), call('15550003', '2018-02-07T12:00:00-05:00')].map((line) => JSON.stringify(line)));
    const { login, password } = await authenticate(running.url, { login: 'alice', password: 'pw' });
    const events = () => request(running.url).get(february('ALL')).auth(login, password);
    expect((await events()).body.calls).toEqual({ '1517461200': 2 });

    const deleted = await admin(running.url).delete('/admin/accounts/dev/alice');
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers['x-ratelimit-limit']).toBeDefined();

    const refused = await events();
    expect(refused.status).toBe(401);
    expect(refused.headers['x-error-code']).toBe('IVR_UNAUTHORIZED');
    const relogin = await request(running.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'pw' });
    expect(relogin.status).toBe(401);
    expect((await admin(running.url).get('/admin/accounts/dev/alice')).status).toBe(404);
    expect(((await admin(running.url).get('/admin/accounts')).body as { accounts: { login: string }[] }).accounts.map(({ login: shown }) => shown)).toEqual(['bob']);

    expect((await admin(running.url).put('/admin/accounts/dev/bob/phones/15550001')).status).toBe(201);
    const bob = await authenticate(running.url, { login: 'bob', password: 'pw-bob' });
    const bobsNew = await request(running.url).get(february('15550001')).auth(bob.login, bob.password);
    expect(bobsNew.body.calls).toEqual({ '1517464800': 0 });
    expect((await request(running.url).get(february('15550003')).auth(bob.login, bob.password)).body.calls).toEqual({ '1517464800': 1 });
    // The ids of the deleted calls stay known, as after retention: the same call again is a duplicate.
    const again = await postNdjson(running.url, [JSON.stringify(aliceCall)]);
    expect(again.body).toMatchObject({ received: 1, inserted: 0, duplicates: 1 });

    expect((await putAccount('/admin/accounts/dev/alice', { password: 'pw' })).body).toEqual({
      tool: 'dev',
      login: 'alice',
      active: true,
      timezone: 'America/Chicago',
      phones: [],
    });
    expect((await events()).status).toBe(401);
  });

  test('answers 404 for an account that does not exist or was deleted already; other methods of the path are 405', async () => {
    const missing = await admin(running.url).delete('/admin/accounts/dev/nobody');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-error-code']).toBe('IVR_ACCOUNT_NOT_FOUND');
    expect(missing.body).toEqual({ error: 'no account dev/nobody' });

    await putAccount('/admin/accounts/dev/alice', { password: 'pw' });
    expect((await admin(running.url).delete('/admin/accounts/dev/alice')).status).toBe(204);
    const again = await admin(running.url).delete('/admin/accounts/dev/alice');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'no account dev/alice' });

    const invalid = await admin(running.url).delete('/admin/accounts/voice/alice');
    expect(invalid.status).toBe(400);
    expect(invalid.headers['x-error-code']).toBe('IVR_INVALID_TOOL');
    const post = await admin(running.url).post('/admin/accounts/dev/alice');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, PUT, DELETE');
  });
});
