import { gzipSync } from 'node:zlib';
import request from 'supertest';
import type { RunningServer } from '../../listen';
import { addAccount, buildTestApp, type TestApp } from '../../../test/support/test-app';
import { serve } from '../../../test/support/http';

const HEX32 = /^[0-9a-f]{32}$/;
const INVALID_TOOL = 'Invalid tool parameter. Allowed values are: dev, fuse, insight, fuseplus';
const INVALID_LOGIN = 'invalid login or password, or the account is inactive';

let testApp: TestApp;
let server: RunningServer;

beforeEach(async () => {
  testApp = buildTestApp({}, undefined, { hashing: 'scrypt' });
  server = await serve(testApp.app);
  await addAccount(testApp.store, { tool: 'dev', login: 'alice', password: 'secret-password', hashing: 'scrypt' });
});

afterEach(() => server.close());

const auth = () => request(server.url).post('/api/auth');

describe('POST /api/auth', () => {
  test('returns 200 with 32-hex temporary credentials for a form body', async () => {
    const response = await auth().type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(response.body)).toEqual(['login', 'password']);
    expect(response.body.login).toMatch(HEX32);
    expect(response.body.password).toMatch(HEX32);
    expect(response.body.login).not.toBe(response.body.password);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.text)));
  });

  test('reads the fields from the query string as documented', async () => {
    const response = await request(server.url).post('/api/auth?tool=dev&login=alice&password=secret-password');
    expect(response.status).toBe(200);
    expect(response.body.login).toMatch(HEX32);
  });

  test('reads the fields from a JSON body', async () => {
    const response = await auth().send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(response.status).toBe(200);
    expect(response.body.password).toMatch(HEX32);
  });

  test('lets the body win over the query string when a field is in both', async () => {
    const response = await request(server.url)
      .post('/api/auth?tool=dev&login=alice&password=wrong')
      .type('form')
      .send({ password: 'secret-password' });
    expect(response.status).toBe(200);
  });

  test.each(['dev', 'fuse', 'insight', 'fuseplus'] as const)('accepts the tool %s', async (tool) => {
    await addAccount(testApp.store, { tool, login: 'bob', password: `pw-${tool}`, hashing: 'scrypt' });
    const response = await auth().type('form').send({ tool, login: 'bob', password: `pw-${tool}` });
    expect(response.status).toBe(200);
  });

  test('keeps accounts per tool: the same login under another tool is another account', async () => {
    await addAccount(testApp.store, { tool: 'fuseplus', login: 'alice', password: 'other-password', hashing: 'scrypt' });
    const devWithFuseplusPassword = await auth().type('form').send({ tool: 'dev', login: 'alice', password: 'other-password' });
    const fuseplus = await auth().type('form').send({ tool: 'fuseplus', login: 'alice', password: 'other-password' });
    expect(devWithFuseplusPassword.status).toBe(401);
    expect(fuseplus.status).toBe(200);
  });

  test('issues a new pair on every success and keeps earlier pairs valid', async () => {
    const first = await auth().type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    const second = await auth().type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(second.body.login).not.toBe(first.body.login);
    await testApp.store.phones.assign('15550001', 'dev:alice');
    for (const pair of [first.body, second.body]) {
      const events = await request(server.url)
        .get('/api/events/20180201/20180201/day/ALL')
        .auth(pair.login as string, pair.password as string);
      expect(events.status).toBe(200);
    }
  });

  test.each([
    ['an unknown tool', { tool: 'excel', login: 'alice', password: 'secret-password' }],
    ['a missing tool', { login: 'alice', password: 'secret-password' }],
    ['a tool in the wrong case', { tool: 'DEV', login: 'alice', password: 'secret-password' }],
  ])('returns 400 naming the allowed tools for %s', async (_case, body) => {
    const response = await auth().type('form').send(body);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_TOOL');
    expect(response.body).toEqual({ error: INVALID_TOOL });
  });

  test.each([
    ['login', { tool: 'dev', password: 'secret-password' }],
    ['login', { tool: 'dev', login: '', password: 'secret-password' }],
    ['password', { tool: 'dev', login: 'alice' }],
    ['password', { tool: 'dev', login: 'alice', password: '' }],
  ])('returns 400 when %s is missing or empty', async (field, body) => {
    const response = await auth().type('form').send(body);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_MISSING_FIELD');
    expect(response.body).toEqual({ error: `${field} is required` });
  });

  test.each([
    ['an array', '[]', 'IVR_INVALID_BODY', 'the JSON body must be an object with tool, login and password'],
    ['a string', '"dev"', 'IVR_MALFORMED_BODY', 'request body could not be parsed'],
    ['null', 'null', 'IVR_MALFORMED_BODY', 'request body could not be parsed'],
  ])('returns 400 for a JSON body that is %s, even with every field in the query string', async (_kind, body, code, error) => {
    const response = await request(server.url)
      .post('/api/auth?tool=dev&login=alice&password=secret-password')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe(code);
    expect(response.body).toEqual({ error });
  });

  test('refuses a login with a control character, as the API reference states', async () => {
    const response = await auth().send({ tool: 'dev', login: 'ali\u0007ce', password: 'secret-password' });
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(response.body).toEqual({ error: 'login must be text without control characters or unpaired surrogates' });
  });

  test('returns 400 for a JSON body that does not parse', async () => {
    const response = await auth().set('Content-Type', 'application/json').send('{"tool": "dev",');
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_MALFORMED_BODY');
    expect(response.body).toEqual({ error: 'request body could not be parsed' });
  });

  test('returns 400 for a body over 16 kB', async () => {
    const response = await auth().type('form').send({ tool: 'dev', login: 'alice', password: 'x'.repeat(20_000) });
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_BODY_TOO_LARGE');
    expect(response.body).toEqual({ error: 'request body is larger than 16384 bytes' });
  });

  test('returns 400 naming the charset for a JSON body in a charset other than UTF-8', async () => {
    const response = await auth()
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"tool":"dev","login":"alice","password":"secret-password"}');
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_UNSUPPORTED_CHARSET');
    expect(response.body).toEqual({ error: 'charset latin1 is not supported; send the body in UTF-8' });
  });

  test('returns 400 naming the Content-Encoding for a body compressed in an unknown way', async () => {
    const response = await auth().type('form').set('Content-Encoding', 'x-squash').send('tool=dev');
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_UNSUPPORTED_CONTENT_ENCODING');
    expect(response.body).toEqual({
      error: 'Content-Encoding x-squash is not supported; send the body uncompressed, or as gzip, deflate or br',
    });
  });

  test.each(['gzip', 'deflate', 'br'])('returns 400 naming the Content-Encoding for a body that is not %s data', async (encoding) => {
    const response = await auth().type('form').set('Content-Encoding', encoding).send(Buffer.from('tool=dev&login=alice'));
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_CORRUPT_CONTENT_ENCODING');
    expect(response.body).toEqual({ error: `request body is not valid ${encoding} data, as its Content-Encoding says: it is corrupt or cut short` });
  });

  test('returns 400 for a gzip body cut short', async () => {
    const truncated = gzipSync('tool=dev&login=alice&password=secret-password').subarray(0, 12);
    const response = await auth().type('form').set('Content-Encoding', 'gzip').send(truncated);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_CORRUPT_CONTENT_ENCODING');
    expect(response.body).toEqual({ error: 'request body is not valid gzip data, as its Content-Encoding says: it is corrupt or cut short' });
  });

  test('counts a body it cannot read against the authentication limit, with the rate-limit headers', async () => {
    await auth().type('form').send({ tool: 'dev' });
    const response = await auth().set('Content-Type', 'application/json; charset=latin1').send('{}');
    expect(response.status).toBe(400);
    expect(response.headers['x-ratelimit-limit']).toBe('15');
    expect(response.headers['x-ratelimit-remaining']).toBe('13');
  });

  test('returns 400 for a form body of more than 1000 fields', async () => {
    const fields = Array.from({ length: 1001 }, (_, index) => `f${index}=1`).join('&');
    const response = await auth().type('form').send(fields);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_TOO_MANY_PARAMETERS');
    expect(response.body).toEqual({ error: 'request body has too many form fields' });
  });

  test.each([
    ['an unknown login', { tool: 'dev', login: 'mallory', password: 'secret-password' }],
    ['a wrong password', { tool: 'dev', login: 'alice', password: 'wrong-password' }],
  ])('returns 401 with one message for %s', async (_case, body) => {
    const response = await auth().type('form').send(body);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Form realm="IVR reporting API"');
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_LOGIN');
    expect(response.body).toEqual({ error: INVALID_LOGIN });
  });

  test('returns 401 with the same message for an inactive account with the right password', async () => {
    await addAccount(testApp.store, { tool: 'insight', login: 'carol', password: 'pw', active: false, hashing: 'scrypt' });
    const response = await auth().type('form').send({ tool: 'insight', login: 'carol', password: 'pw' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Form realm="IVR reporting API"');
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_LOGIN');
    expect(response.body).toEqual({ error: INVALID_LOGIN });
  });

  test.each(['get', 'put', 'delete', 'patch'] as const)('returns 405 with Allow: POST for %s', async (method) => {
    const response = await request(server.url)[method]('/api/auth');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.headers['x-error-code']).toBe('IVR_METHOD_NOT_ALLOWED');
    expect(response.body).toEqual({ error: `method ${method.toUpperCase()} is not allowed here; use POST` });
  });

  test('returns 405 with Allow: POST and no body for HEAD', async () => {
    const response = await request(server.url).head('/api/auth');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.text).toBeUndefined();
  });

  test('returns 405 with Allow: POST for OPTIONS', async () => {
    const response = await request(server.url).options('/api/auth');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.body).toEqual({ error: 'method OPTIONS is not allowed here; use POST' });
  });

  test.each([
    ['login', { tool: 'dev', login: 42, password: 'secret-password' }, 'login must be text'],
    ['password', { tool: 'dev', login: 'alice', password: ['a', 'b'] }, 'password must be text'],
    ['login', { tool: 'dev', login: 'a'.repeat(1025), password: 'secret-password' }, 'login must be at most 1024 characters'],
    ['password', { tool: 'dev', login: 'alice', password: 'p'.repeat(1025) }, 'password must be at most 1024 characters'],
    [
      'login',
      { tool: 'dev', login: 'ali\u0000ce', password: 'secret-password' },
      'login must be text without control characters or unpaired surrogates',
    ],
  ])('returns 400 saying what is wrong with %s when it is not a short text', async (_field, body, error) => {
    const response = await auth().send(body);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_INVALID_PARAMETER');
    expect(response.body).toEqual({ error });
  });

  test('answers in XML when Accept asks for application/xml', async () => {
    const response = await auth()
      .set('Accept', 'application/xml')
      .type('form')
      .send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.text).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?><result><login>[0-9a-f]{32}<\/login><password>[0-9a-f]{32}<\/password><\/result>$/,
    );
  });

  test('answers errors in XML when Accept asks for application/xml', async () => {
    const response = await auth().set('Accept', 'application/xml').type('form').send({ tool: 'excel' });
    expect(response.status).toBe(400);
    expect(response.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><result><error>${INVALID_TOOL}</error></result>`);
  });
});
