import request from 'supertest';
import { authenticate, call } from '../../../test/support/reporting';
import { admin, postNdjson, startAdminServer, type AdminServer } from '../../../test/support/admin';

let running: AdminServer;

beforeEach(async () => {
  running = await startAdminServer();
  await admin(running.url).put('/admin/accounts/dev/alice').send({ password: 'pw-alice', timezone: 'America/New_York' });
  await admin(running.url).put('/admin/accounts/dev/bob').send({ password: 'pw-bob', timezone: 'Asia/Tokyo' });
});

afterEach(() => running.server.close());

const phonePath = (login: string, phone: string) => `/admin/accounts/dev/${login}/phones/${phone}`;

describe('PUT /admin/accounts/{tool}/{login}/phones/{phone}', () => {
  test('assigns a free number with 201 and answers the account with its numbers', async () => {
    const response = await admin(running.url).put(phonePath('alice', '15550001'));
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ tool: 'dev', login: 'alice', active: true, timezone: 'America/New_York', phones: ['15550001'] });
  });

  test('answers 200 when the account already has the number, a leading + ignored', async () => {
    await admin(running.url).put(phonePath('alice', '15550001'));
    const again = await admin(running.url).put(phonePath('alice', '+15550001'));
    expect(again.status).toBe(200);
    expect(again.body.phones).toEqual(['15550001']);
  });

  test('answers 409 for a number on another account and leaves it there', async () => {
    await admin(running.url).put(phonePath('alice', '15550001'));
    const conflict = await admin(running.url).put(phonePath('bob', '15550001'));
    expect(conflict.status).toBe(409);
    expect(conflict.headers['x-error-code']).toBe('IVR_PHONE_OWNED_BY_ANOTHER');
    expect(conflict.body).toEqual({ error: 'phone 15550001 is on another account; release it there first' });
    expect((await admin(running.url).get('/admin/accounts/dev/alice')).body.phones).toEqual(['15550001']);
    expect((await admin(running.url).get('/admin/accounts/dev/bob')).body.phones).toEqual([]);
  });

  test('answers 404 for an account that does not exist and 400 for a malformed number', async () => {
    const missing = await admin(running.url).put(phonePath('carol', '15550001'));
    expect(missing.status).toBe(404);
    expect(missing.headers['x-error-code']).toBe('IVR_ACCOUNT_NOT_FOUND');
    expect(missing.body).toEqual({ error: 'no account dev/carol' });
    const malformed = await admin(running.url).put(phonePath('alice', '555-0001'));
    expect(malformed.status).toBe(400);
    expect(malformed.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(malformed.body).toEqual({ error: 'phone: must be a phone number of 1-15 digits, optionally after a +' });
  });
});

describe('DELETE /admin/accounts/{tool}/{login}/phones/{phone}', () => {
  test('releases a number of the account with 200, so another account can take it', async () => {
    await admin(running.url).put(phonePath('alice', '15550001'));
    const released = await admin(running.url).delete(phonePath('alice', '15550001'));
    expect(released.status).toBe(200);
    expect(released.body.phones).toEqual([]);
    expect((await admin(running.url).put(phonePath('bob', '15550001'))).status).toBe(201);
  });

  test('answers 404 for a number the account does not have', async () => {
    await admin(running.url).put(phonePath('alice', '15550001'));
    const response = await admin(running.url).delete(phonePath('bob', '15550001'));
    expect(response.status).toBe(404);
    expect(response.headers['x-error-code']).toBe('IVR_PHONE_NOT_ON_ACCOUNT');
    expect(response.body).toEqual({ error: 'phone 15550001 is not on account dev/bob' });
    expect((await admin(running.url).get('/admin/accounts/dev/alice')).body.phones).toEqual(['15550001']);
  });

  test('moves the number calls with it, shown in the local days of the new owner', async () => {
    await admin(running.url).put(phonePath('alice', '15550001'));
    // 03:30 UTC on 8 February: the evening of the 7th in New York, midday of the 8th in Tokyo.
    await postNdjson(running.url, [JSON.stringify(call('15550001', '2018-02-08T03:30:00Z'))]);
    await admin(running.url).delete(phonePath('alice', '15550001'));
    await admin(running.url).put(phonePath('bob', '15550001'));

    const alice = await authenticate(running.url, { login: 'alice', password: 'pw-alice' });
    const aliceView = await request(running.url).get('/api/events/20180208/20180208/day/15550001').auth(alice.login, alice.password);
    expect(aliceView.status).toBe(400);
    const bob = await authenticate(running.url, { login: 'bob', password: 'pw-bob' });
    const bobView = await request(running.url).get('/api/events/20180207/20180208/day/15550001').auth(bob.login, bob.password);
    expect(bobView.body.calls).toEqual({ '1517929200': 0, '1518015600': 1 });
  });
});
