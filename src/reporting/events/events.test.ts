import request from 'supertest';
import type { RunningServer } from '../../listen';
import { serve } from '../../../test/support/http';
import { addAccount, buildTestApp, type TestApp } from '../../../test/support/test-app';
import { addCalls, authenticate, call, daySeconds, series, type Credentials } from '../../../test/support/reporting';

const PHONE = '18005550100';
const OTHER_PHONE = '18005550199';

let testApp: TestApp;
let server: RunningServer;
let credentials: Credentials;

async function setUp(env: NodeJS.ProcessEnv = {}, timeZone = 'America/New_York'): Promise<void> {
  testApp = buildTestApp(env);
  server = await serve(testApp.app);
  await addAccount(testApp.store, { timeZone, phones: [PHONE, '18005550101'] });
  await addAccount(testApp.store, { login: 'bob', phones: [OTHER_PHONE] });
  credentials = await authenticate(server.url);
}

afterEach(() => server.close());

const events = (path: string) =>
  request(server.url).get(`/api/events/${path}`).auth(credentials.login, credentials.password);

describe('GET /api/events: the reference example', () => {
  beforeEach(() => setUp());

  test('reports one call on 2018-02-07 in New York under the key 1517979600, every other day zero', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-02-07T10:15:00-05:00', { log_events: 7, loops: 3, form_items: 5 })]);
    const response = await events('20180201/20180208/day/ALL');
    const keys = daySeconds(1517461200, 8);
    expect(keys.at(-1)).toBe(1518066000);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({
      calls: series(keys, { 1517979600: 1 }),
      log_events: series(keys, { 1517979600: 7 }),
      loops_per_call: series(keys, { 1517979600: 3 }),
      form_items: series(keys, { 1517979600: 5 }),
      loops: series(keys, { 1517979600: 3 }),
      average_form_items: series(keys, { 1517979600: 5 }),
    });
  });

  test('writes compact JSON with the series in the order of the specification and keys ascending', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-02-07T10:15:00-05:00')]);
    const response = await events('20180206/20180207/day/ALL');
    const pair = (a: number, b: number) => `{"1517893200":${a},"1517979600":${b}}`;
    expect(response.text).toBe(
      `{"calls":${pair(0, 1)},"log_events":${pair(0, 0)},"loops_per_call":${pair(0, 0)},` +
        `"form_items":${pair(0, 0)},"loops":${pair(0, 0)},"average_form_items":${pair(0, 0)}}`,
    );
  });

  test('answers in XML with one period element per key when Accept prefers application/xml', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-02-07T10:15:00-05:00', { log_events: 2 })]);
    const response = await events('20180206/20180207/day/ALL').set('Accept', 'application/json;q=0.5, application/xml');
    const periods = (a: number, b: number) =>
      `<period timestamp="1517893200">${a}</period><period timestamp="1517979600">${b}</period>`;
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><result>' +
        `<calls>${periods(0, 1)}</calls><log_events>${periods(0, 2)}</log_events>` +
        `<loops_per_call>${periods(0, 0)}</loops_per_call><form_items>${periods(0, 0)}</form_items>` +
        `<loops>${periods(0, 0)}</loops><average_form_items>${periods(0, 0)}</average_form_items></result>`,
    );
  });

  test('answers in JSON when Accept prefers JSON over XML by q-value', async () => {
    const response = await events('20180206/20180207/day/ALL').set('Accept', 'application/xml;q=0.4, application/json');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('answers in JSON for an Accept it cannot serve', async () => {
    const response = await events('20180206/20180207/day/ALL').set('Accept', 'text/html');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('GET /api/events: periods in the account time zone', () => {
  beforeEach(() => setUp());

  test('buckets a 23-hour spring-forward day: a call at 23:30 local belongs to that day', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-03-11T23:30:00-04:00'), call(PHONE, '2018-03-12T00:30:00-04:00')]);
    const response = await events('20180310/20180312/day/ALL');
    expect(response.body.calls).toEqual({ 1520658000: 0, 1520744400: 1, 1520827200: 1 });
  });

  test('buckets a 25-hour fall-back day: a call at 23:30 local belongs to that day', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-11-04T01:30:00-04:00'),
      call(PHONE, '2018-11-04T01:30:00-05:00'),
      call(PHONE, '2018-11-04T23:30:00-05:00'),
    ]);
    const response = await events('20181103/20181105/day/ALL');
    expect(response.body.calls).toEqual({ 1541217600: 0, 1541304000: 3, 1541394000: 0 });
  });

  test('keys a week that begins before start by its Monday, counting only days inside the range', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-01-30T12:00:00-05:00'),
      call(PHONE, '2018-02-02T12:00:00-05:00'),
      call(PHONE, '2018-02-06T12:00:00-05:00'),
    ]);
    const response = await events('20180201/20180208/week/ALL');
    expect(response.body.calls).toEqual({ 1517202000: 1, 1517806800: 1 });
  });

  test('keys a month that begins before start by its first day, counting only days inside the range', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-01-10T12:00:00-05:00'),
      call(PHONE, '2018-01-20T12:00:00-05:00'),
      call(PHONE, '2018-03-01T00:00:00-05:00'),
    ]);
    const response = await events('20180115/20180301/month/ALL');
    expect(response.body.calls).toEqual({ 1514782800: 1, 1517461200: 0, 1519880400: 1 });
  });

  test('reports a period with no calls as 0 in every series, ratios included', async () => {
    const response = await events('20180201/20180201/day/ALL');
    const zero = { 1517461200: 0 };
    expect(response.body).toEqual({
      calls: zero,
      log_events: zero,
      loops_per_call: zero,
      form_items: zero,
      loops: zero,
      average_form_items: zero,
    });
  });

  test('rounds loops per call and form items per call half up to two decimals', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-01T09:00:00-05:00', { loops: 1, form_items: 2 }),
      ...Array.from({ length: 7 }, () => call(PHONE, '2018-02-01T10:00:00-05:00')),
      call(PHONE, '2018-02-02T10:00:00-05:00', { loops: 2, form_items: 1 }),
      call(PHONE, '2018-02-02T10:00:00-05:00', { loops: 0, form_items: 1 }),
      call(PHONE, '2018-02-02T10:00:00-05:00', { loops: 0, form_items: 0 }),
    ]);
    const response = await events('20180201/20180202/day/ALL');
    expect(response.body.loops_per_call).toEqual({ 1517461200: 0.13, 1517547600: 0.67 });
    expect(response.body.average_form_items).toEqual({ 1517461200: 0.25, 1517547600: 0.67 });
  });

  test('merges every number of the account for ALL and reports one number alone', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-01T09:00:00-05:00', { log_events: 1 }),
      call('18005550101', '2018-02-01T09:00:00-05:00', { log_events: 10 }),
      call(OTHER_PHONE, '2018-02-01T09:00:00-05:00', { log_events: 100 }),
    ]);
    const all = await events('20180201/20180201/day/ALL');
    const one = await events('20180201/20180201/day/18005550101');
    expect(all.body.log_events).toEqual({ 1517461200: 11 });
    expect(one.body.log_events).toEqual({ 1517461200: 10 });
  });

  test('accepts a leading + on the phone number and ignores it', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-02-01T09:00:00-05:00')]);
    const response = await events(`20180201/20180201/day/%2B${PHONE}`);
    expect(response.status).toBe(200);
    expect(response.body.calls).toEqual({ 1517461200: 1 });
  });

  test('counts a call record sent twice once', async () => {
    const record = call(PHONE, '2018-02-01T09:00:00-05:00');
    await addCalls(testApp.store, [record, record]);
    await addCalls(testApp.store, [record]);
    const response = await events('20180201/20180201/day/ALL');
    expect(response.body.calls).toEqual({ 1517461200: 1 });
  });

  test('serves HEAD with the headers of GET and no body', async () => {
    const response = await request(server.url)
      .head('/api/events/20180201/20180201/day/ALL')
      .auth(credentials.login, credentials.password);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.text).toBeUndefined();
    const get = await events('20180201/20180201/day/ALL');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    expect(response.headers.etag).toBe(get.headers.etag);
  });

  test.each([
    ['%E0%A4%A/20240101/day/ALL', '%E0%A4%A'],
    ['20240101/20240101/day/%FF', '%FF'],
  ])('returns 400 naming a path part that is not valid percent-encoding, with or without credentials: %s', async (path, part) => {
    const withCredentials = await events(path);
    const without = await request(server.url).get(`/api/events/${path}`);
    for (const response of [withCredentials, without]) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: `path part ${part} is not valid percent-encoded UTF-8` });
    }
  });

  test('answers a path part that is not valid percent-encoding in XML when Accept asks for it', async () => {
    const response = await events('20240101/20240101/day/%FF').set('Accept', 'application/xml');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.text).toBe('<?xml version="1.0" encoding="UTF-8"?><result><error>path part %FF is not valid percent-encoded UTF-8</error></result>');
  });

  test.each(['post', 'put', 'delete', 'patch'] as const)('returns 405 with Allow: GET, HEAD for %s', async (method) => {
    const response = await request(server.url)[method]('/api/events/20180201/20180201/day/ALL');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body).toEqual({ error: `method ${method.toUpperCase()} is not allowed here; use GET or HEAD` });
  });
});

describe('GET /api/events: path validation', () => {
  beforeEach(() => setUp({ MAX_RANGE_DAYS: '31' }));

  test.each([
    ['start is not eight digits', '2018021/20180208/day/ALL', 'IVR_INVALID_PARAMETER', 'start "2018021" is not a real date in the form YYYYMMDD (from 19700101)'],
    ['start is not a real date', '20180230/20180308/day/ALL', 'IVR_INVALID_PARAMETER', 'start "20180230" is not a real date in the form YYYYMMDD (from 19700101)'],
    ['end has a month 13', '20180201/20181301/day/ALL', 'IVR_INVALID_PARAMETER', 'end "20181301" is not a real date in the form YYYYMMDD (from 19700101)'],
    ['start is before 1970', '19691231/19700101/day/ALL', 'IVR_INVALID_PARAMETER', 'start "19691231" is not a real date in the form YYYYMMDD (from 19700101)'],
    ['end is earlier than start', '20180201/20180131/day/ALL', 'IVR_END_BEFORE_START', 'end 20180131 is earlier than start 20180201'],
    ['the range is longer than the maximum', '20180101/20180201/day/ALL', 'IVR_RANGE_TOO_LONG', 'the range covers 32 days; at most 31 days can be asked for at once'],
    ['period is not day, week or month', '20180201/20180208/year/ALL', 'IVR_INVALID_PARAMETER', 'period must be day, week or month, not "year"'],
    ['period is in the wrong case', '20180201/20180208/Day/ALL', 'IVR_INVALID_PARAMETER', 'period must be day, week or month, not "Day"'],
    ['phone has letters', '20180201/20180208/day/1800FLOWERS', 'IVR_INVALID_PARAMETER', 'phone must be ALL or a number of 1-15 digits, not "1800FLOWERS"'],
    ['phone has 16 digits', '20180201/20180208/day/1234567890123456', 'IVR_INVALID_PARAMETER', 'phone must be ALL or a number of 1-15 digits, not "1234567890123456"'],
    ['phone is all in lower case', '20180201/20180208/day/all', 'IVR_INVALID_PARAMETER', 'phone must be ALL or a number of 1-15 digits, not "all"'],
    ['the number belongs to another account', `20180201/20180208/day/${OTHER_PHONE}`, 'IVR_PHONE_NOT_OWNED', `phone ${OTHER_PHONE} is not on this account`],
    ['the number belongs to nobody', '20180201/20180208/day/15550000', 'IVR_PHONE_NOT_OWNED', 'phone 15550000 is not on this account'],
  ])('returns 400 when %s', async (_case, path, code, message) => {
    const response = await events(path);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe(code);
    expect(response.body).toEqual({ error: message });
  });

  test('accepts a range of exactly the maximum length', async () => {
    const response = await events('20180101/20180131/day/ALL');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.calls as object)).toHaveLength(31);
  });

  test('escapes XML special characters of a bad value in an XML error body', async () => {
    const response = await events('20180201/20180208/day/%3C%26%3E%22').set('Accept', 'application/xml');
    expect(response.status).toBe(400);
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><result><error>phone must be ALL or a number of 1-15 digits, not "&lt;&amp;&gt;\\""</error></result>',
    );
  });

  test('escapes control characters of a bad value in the message, in XML too', async () => {
    const response = await events('20180201/20180208/day/12%0134').set('Accept', 'application/xml');
    expect(response.status).toBe(400);
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><result><error>phone must be ALL or a number of 1-15 digits, not "12\\u000134"</error></result>',
    );
  });
});

describe('GET /api/events: week start and time zones from configuration', () => {
  test('starts weeks on Sunday when WEEK_START is sunday', async () => {
    await setUp({ WEEK_START: 'sunday' });
    await addCalls(testApp.store, [call(PHONE, '2018-02-04T12:00:00-05:00')]);
    const response = await events('20180201/20180208/week/ALL');
    expect(response.body.calls).toEqual({ 1517115600: 0, 1517720400: 1 });
  });

  test('starts a day at the first instant that exists where DST skips midnight', async () => {
    await setUp({}, 'America/Santiago');
    await addCalls(testApp.store, [call(PHONE, '2018-08-12T01:00:00-03:00')]);
    const response = await events('20180812/20180812/day/ALL');
    expect(response.body.calls).toEqual({ 1534046400: 1 });
  });

  test('reads an account in UTC with UTC midnights', async () => {
    await setUp({}, 'UTC');
    await addCalls(testApp.store, [call(PHONE, '2018-02-07T23:59:59-05:00')]);
    const response = await events('20180207/20180208/day/ALL');
    expect(response.body.calls).toEqual({ 1517961600: 0, 1518048000: 1 });
  });
});

describe('GET /api/events: periods that would start before 1970', () => {
  const before = (period: string, zone: string, earliest: string, start = '19700101') =>
    `start ${start}: its ${period} starts before 1970-01-01T00:00:00Z in ${zone}, and a period is keyed by the Unix second it starts at; ` +
    `the earliest start for ${period} periods is ${earliest}`;

  test.each([
    ['a Monday week of 1969-12-29 in New York', {}, 'America/New_York', '19700101/19720229/week/ALL', before('week', 'America/New_York', '19700105')],
    ['a Sunday week of 1969-12-28 in New York', { WEEK_START: 'sunday' }, 'America/New_York', '19700101/19700110/week/ALL', before('week', 'America/New_York', '19700104')],
    ['the first day of 1970 in Tokyo, which began in 1969 in UTC', {}, 'Asia/Tokyo', '19700101/19700103/day/ALL', before('day', 'Asia/Tokyo', '19700102')],
    ['January 1970 in Tokyo', {}, 'Asia/Tokyo', '19700115/19700301/month/ALL', before('month', 'Asia/Tokyo', '19700201', '19700115')],
  ])('refuses %s with a 400 naming the earliest start', async (_case, env, zone, path, message) => {
    await setUp(env, zone);
    const response = await events(path);
    expect({ status: response.status, code: response.headers['x-error-code'], body: response.body }).toEqual({
      status: 400,
      code: 'IVR_PERIOD_BEFORE_EPOCH',
      body: { error: message },
    });
  });

  test('keys the first periods that start at or after 1970-01-01T00:00:00Z from 0 up', async () => {
    await setUp({}, 'UTC');
    const keys = [];
    for (const path of ['19700101/19700102/day', '19700105/19700112/week', '19700101/19700201/month']) keys.push((await events(`${path}/ALL`)).body.calls);
    expect(keys).toEqual([{ 0: 0, 86400: 0 }, { 345600: 0, 950400: 0 }, { 0: 0, 2678400: 0 }]);
  });

  test('keys the first day of 1970 in New York by 18000, the Unix second of its midnight there', async () => {
    await setUp();
    const response = await events('19700101/19700101/day/ALL');
    expect(response.body.calls).toEqual({ 18000: 0 });
  });
});
