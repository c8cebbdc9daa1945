import request from 'supertest';
import type { RunningServer } from '../listen';
import { serve } from '../../test/support/http';
import { addAccount, buildTestApp, type TestApp } from '../../test/support/test-app';
import { addCalls, authenticate, call, daySeconds, series, type Credentials } from '../../test/support/reporting';

const PHONE = '18005550100';
const SECOND_PHONE = '18005550101';
const OTHER_PHONE = '18005550199';

/** Local midnights in New York from 2018-02-01: the keys of the reference example. */
const FEBRUARY_DAYS = daySeconds(1517461200, 28);
const FEB_5 = 1517806800;
const FEB_7 = 1517979600;
/** Monday 2018-02-05 and Monday 2018-02-12 in New York. */
const WEEK_OF_FEB_5 = 1517806800;
const WEEK_OF_FEB_12 = 1518411600;

let testApp: TestApp;
let server: RunningServer;
let credentials: Credentials;

beforeEach(async () => {
  testApp = buildTestApp({ MAX_RANGE_DAYS: '31' });
  server = await serve(testApp.app);
  await addAccount(testApp.store, { timeZone: 'America/New_York', phones: [PHONE, SECOND_PHONE] });
  await addAccount(testApp.store, { login: 'bob', phones: [OTHER_PHONE] });
  credentials = await authenticate(server.url);
});

afterEach(() => server.close());

const get = (path: string) => request(server.url).get(`/api/${path}`).auth(credentials.login, credentials.password);
const getXml = (path: string) => get(path).set('Accept', 'application/xml');
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

const step = (page: string, form: string, item: string, counters: Record<string, number>, application = 'https://ivr.example.com/start.vxml') => ({
  application,
  page,
  form,
  item,
  ...counters,
});

describe('GET /api/volume', () => {
  test('reports calls, call minutes, transfers and transfer minutes per day, rounded half up to two decimals', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-07T10:00:00-05:00', { duration_seconds: 61.5, transfers: 1, transfer_seconds: 45 }),
      call(SECOND_PHONE, '2018-02-07T11:00:00-05:00', { duration_seconds: 30 }),
      call(PHONE, '2018-02-07T12:00:00-05:00'),
    ]);
    const response = await get('volume/20180206/20180207/day/ALL');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const pair = (a: number, b: number) => `{"1517893200":${a},"1517979600":${b}}`;
    expect(response.text).toBe(
      `{"calls":${pair(0, 3)},"call_minutes":${pair(0, 1.53)},"transfers":${pair(0, 1)},"transfer_minutes":${pair(0, 0.75)}}`,
    );
  });

  test('answers in XML with one element per series in the order of the specification', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-02-07T10:00:00-05:00', { duration_seconds: 90 })]);
    const response = await getXml('volume/20180207/20180207/day/ALL');
    const period = (value: number) => `<period timestamp="${FEB_7}">${value}</period>`;
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.text).toBe(
      `${XML_DECLARATION}<result><calls>${period(1)}</calls><call_minutes>${period(1.5)}</call_minutes>` +
        `<transfers>${period(0)}</transfers><transfer_minutes>${period(0)}</transfer_minutes></result>`,
    );
  });

  test('zero-fills the periods of a month and counts version-1 records as calls of no minutes', async () => {
    await addCalls(testApp.store, [call(PHONE, '2018-02-05T10:00:00-05:00')]);
    const response = await get('volume/20180201/20180228/day/ALL');
    expect(response.body).toEqual({
      calls: series(FEBRUARY_DAYS, { [FEB_5]: 1 }),
      call_minutes: series(FEBRUARY_DAYS),
      transfers: series(FEBRUARY_DAYS),
      transfer_minutes: series(FEBRUARY_DAYS),
    });
  });
});

describe('GET /api/performance', () => {
  test('reports errors, errors per call and the average page load in seconds, 0 where there is nothing to divide', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-07T10:00:00-05:00', { js_errors: 2, fetch_errors: 1, page_loads: 4, page_load_seconds: 1.2 }),
      call(PHONE, '2018-02-07T11:00:00-05:00', { page_loads: 1, page_load_seconds: 0.3 }),
      call(SECOND_PHONE, '2018-02-07T12:00:00-05:00', { js_errors: 1 }),
      call(PHONE, '2018-02-06T12:00:00-05:00', { js_errors: 1 }),
    ]);
    const response = await get('performance/20180205/20180207/day/ALL');
    const days = daySeconds(FEB_5, 3);
    expect(response.body).toEqual({
      calls: series(days, { [days[1] as number]: 1, [FEB_7]: 3 }),
      js_errors: series(days, { [days[1] as number]: 1, [FEB_7]: 3 }),
      js_errors_per_call: series(days, { [days[1] as number]: 1, [FEB_7]: 1 }),
      fetch_errors: series(days, { [FEB_7]: 1 }),
      fetch_errors_per_call: series(days, { [FEB_7]: 0.33 }),
      average_page_load: series(days, { [FEB_7]: 0.3 }),
    });
    expect(Object.keys(response.body as object)).toEqual([
      'calls',
      'js_errors',
      'js_errors_per_call',
      'fetch_errors',
      'fetch_errors_per_call',
      'average_page_load',
    ]);
  });
});

describe('GET /api/profile with a period (caller profile)', () => {
  beforeEach(() =>
    addCalls(testApp.store, [
      call(PHONE, '2018-02-05T10:00:00-05:00', { caller: '6175550123' }),
      call(SECOND_PHONE, '2018-02-09T10:00:00-05:00', { caller: '+16175550123' }),
      call(PHONE, '2018-02-09T11:00:00-05:00', { caller: '+442083661177' }),
      call(PHONE, '2018-02-09T12:00:00-05:00'),
      call(PHONE, '2018-02-12T10:00:00-05:00', { caller: '16175550123' }),
    ]),
  );

  test('counts a caller who calls on Monday and Friday, on two numbers and in three forms, once in that week', async () => {
    const response = await get('profile/20180205/20180218/week/ALL');
    expect(response.status).toBe(200);
    expect(response.text).toBe(
      `{"calls":{"${WEEK_OF_FEB_5}":4,"${WEEK_OF_FEB_12}":1},"callers":{"${WEEK_OF_FEB_5}":2,"${WEEK_OF_FEB_12}":1}}`,
    );
  });

  test('counts callers per day and per number, never summing days into a month', async () => {
    expect((await get('profile/20180201/20180228/month/ALL')).body).toEqual({ calls: { 1517461200: 5 }, callers: { 1517461200: 2 } });
    expect((await get(`profile/20180209/20180209/day/${SECOND_PHONE}`)).body).toEqual({
      calls: { 1518152400: 1 },
      callers: { 1518152400: 1 },
    });
  });

  test('answers in XML with calls then callers', async () => {
    const response = await getXml('profile/20180212/20180212/day/ALL');
    expect(response.text).toBe(
      `${XML_DECLARATION}<result><calls><period timestamp="${WEEK_OF_FEB_12}">1</period></calls>` +
        `<callers><period timestamp="${WEEK_OF_FEB_12}">1</period></callers></result>`,
    );
  });
});

describe('GET /api/profile without a period (geographic)', () => {
  beforeEach(() =>
    addCalls(testApp.store, [
      call(PHONE, '2018-02-05T10:00:00-05:00', { caller: '6175550123' }),
      call(PHONE, '2018-02-05T11:00:00-05:00', { caller: '2055550123' }),
      call(SECOND_PHONE, '2018-02-06T10:00:00-05:00', { caller: '2055550199' }),
      call(PHONE, '2018-02-06T11:00:00-05:00', { caller: '18005550123' }),
      call(PHONE, '2018-02-06T12:00:00-05:00', { caller: '4165550123' }),
      call(PHONE, '2018-02-06T13:00:00-05:00', { caller: '6045550123' }),
      call(PHONE, '2018-02-06T14:00:00-05:00', { caller: '+442083661177' }),
      call(PHONE, '2018-02-06T15:00:00-05:00', { caller: '+33142685300' }),
      call(PHONE, '2018-02-06T16:00:00-05:00', { caller: '5555550123' }),
      call(PHONE, '2018-02-06T17:00:00-05:00'),
      call(PHONE, '2018-03-01T10:00:00-05:00', { caller: '6175550123' }),
    ]),
  );

  /** The reference's sample answer lists the states by name, DC after CT, then US Toll-Free. */
  const US_KEYS = [
    ...'AL AK AZ AR CA CO CT DC DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA'.split(' '),
    ...'RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '),
    'US Toll-Free',
  ];
  const usKeys = (counts: Record<string, number>) => Object.fromEntries(US_KEYS.map((key) => [key, counts[key] ?? 0]));

  test("counts calls per state, zero-filled in the reference's order with US Toll-Free last, and other countries by calls then code", async () => {
    const response = await get('profile/20180201/20180228/ALL');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      US: usKeys({ AL: 2, MA: 1, 'US Toll-Free': 1 }),
      NON_US: [
        { country: 'CA', calls: 2 },
        { country: 'FR', calls: 1 },
        { country: 'GB', calls: 1 },
        { country: 'ZZ', calls: 1 },
      ],
    });
    expect(Object.keys(response.body.US as object)).toEqual(US_KEYS);
    expect(Object.keys(response.body as object)).toEqual(['US', 'NON_US']);
  });

  test('reports one number alone, and an empty NON_US for a range without foreign callers', async () => {
    expect((await get(`profile/20180201/20180228/${SECOND_PHONE}`)).body).toEqual({ US: usKeys({ AL: 1 }), NON_US: [] });
    expect((await get('profile/20180301/20180301/ALL')).body).toEqual({ US: usKeys({ MA: 1 }), NON_US: [] });
  });

  test('answers in XML with a state element per key and a country element per country', async () => {
    const response = await getXml('profile/20180301/20180301/ALL');
    const states = US_KEYS.map((code) => `<state code="${code}">${code === 'MA' ? 1 : 0}</state>`).join('');
    expect(response.text).toBe(`${XML_DECLARATION}<result><US>${states}</US><NON_US/></result>`);
    const withCountries = await getXml(`profile/20180206/20180206/${PHONE}`);
    expect(withCountries.text).toContain(
      '<NON_US><country code="CA">2</country><country code="FR">1</country><country code="GB">1</country><country code="ZZ">1</country></NON_US>',
    );
  });
});

describe('GET /api/path (diagnostic flow)', () => {
  test('sums each form item over the range, applications ascending, entries by visits then page, form and item', async () => {
    const billing = 'https://ivr.example.com/billing.vxml';
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-05T10:00:00-05:00', {
        path: [
          step('main.vxml', 'main_menu', 'selection', { visits: 2, filled: 1, nomatch: 1 }),
          step('pay.vxml', 'confirm', 'yes_no', { visits: 1, filled: 1 }, billing),
        ],
      }),
      call(SECOND_PHONE, '2018-02-06T10:00:00-05:00', {
        path: [
          step('main.vxml', 'main_menu', 'selection', { visits: 1, filled: 1 }),
          step('main.vxml', 'account', 'number', { visits: 1, noinput: 1, disconnect: 1 }),
          step('agent.vxml', 'transfer', 'agent', { visits: 1, transfer: 1 }),
        ],
      }),
      call(PHONE, '2018-03-01T10:00:00-05:00', { path: [step('main.vxml', 'main_menu', 'selection', { visits: 9 })] }),
    ]);
    const response = await get('path/20180201/20180228/ALL');
    expect(response.status).toBe(200);
    const entry = (page: string, form: string, item: string, counters: Record<string, number>) => ({
      page,
      form,
      item,
      visits: 0,
      filled: 0,
      nomatch: 0,
      noinput: 0,
      transfer: 0,
      disconnect: 0,
      ...counters,
    });
    const expected = {
      applications: {
        [billing]: [entry('pay.vxml', 'confirm', 'yes_no', { visits: 1, filled: 1 })],
        'https://ivr.example.com/start.vxml': [
          entry('main.vxml', 'main_menu', 'selection', { visits: 3, filled: 2, nomatch: 1 }),
          entry('agent.vxml', 'transfer', 'agent', { visits: 1, transfer: 1 }),
          entry('main.vxml', 'account', 'number', { visits: 1, noinput: 1, disconnect: 1 }),
        ],
      },
    };
    expect(response.text).toBe(JSON.stringify(expected));
  });

  test('answers {"applications":{}} for a range without calls, and <applications/> in XML', async () => {
    expect((await get('path/20180201/20180228/ALL')).text).toBe('{"applications":{}}');
    expect((await getXml('path/20180201/20180228/ALL')).text).toBe(`${XML_DECLARATION}<result><applications/></result>`);
  });

  test('answers in XML with an application element per URL and an entry per form item', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-05T10:00:00-05:00', { path: [step('main.vxml', 'main_menu', 'selection', { visits: 985, filled: 941, nomatch: 32, noinput: 12 })] }),
    ]);
    const response = await getXml('path/20180205/20180205/ALL');
    expect(response.text).toBe(
      `${XML_DECLARATION}<result><applications><application url="https://ivr.example.com/start.vxml"><entry>` +
        '<page>main.vxml</page><form>main_menu</form><item>selection</item><visits>985</visits><filled>941</filled>' +
        '<nomatch>32</nomatch><noinput>12</noinput><transfer>0</transfer><disconnect>0</disconnect>' +
        '</entry></application></applications></result>',
    );
  });

  test('keeps an application URL that looks like an integer in ascending order', async () => {
    await addCalls(testApp.store, [
      call(PHONE, '2018-02-05T10:00:00-05:00', {
        path: [step('p', 'f', 'i', { visits: 1 }, 'b'), step('p', 'f', 'i', { visits: 1 }, '42')],
      }),
    ]);
    const response = await get('path/20180205/20180205/ALL');
    expect(Object.keys((response.body as { applications: object }).applications)).toEqual(['42', 'b']);
    expect(response.text.indexOf('"42"')).toBeLessThan(response.text.indexOf('"b"'));
  });

  test('reports the 1,000 most visited form items of an application', async () => {
    const path = Array.from({ length: 1_001 }, (_, index) => step('main.vxml', 'menu', `item-${String(index).padStart(4, '0')}`, { visits: index + 1 }));
    await addCalls(testApp.store, [call(PHONE, '2018-02-05T10:00:00-05:00', { path: path.slice(0, 500) }), call(PHONE, '2018-02-05T11:00:00-05:00', { path: path.slice(500) })]);
    const response = await get('path/20180205/20180205/ALL');
    const entries = (response.body as { applications: Record<string, Array<{ item: string; visits: number }>> }).applications[
      'https://ivr.example.com/start.vxml'
    ];
    expect(entries).toHaveLength(1_000);
    expect(entries?.[0]).toMatchObject({ item: 'item-1000', visits: 1_001 });
    expect(entries?.at(-1)).toMatchObject({ item: 'item-0001', visits: 2 });
  });

  test('returns 400 naming the limit when the range holds more than 10,000 form items', async () => {
    const items = (application: string) =>
      Array.from({ length: 1_000 }, (_, index) => step('main.vxml', 'menu', `item-${index}`, { visits: 1 }, application));
    await addCalls(
      testApp.store,
      Array.from({ length: 11 }, (_, app) => call(PHONE, `2018-02-${String(5 + app).padStart(2, '0')}T10:00:00-05:00`, { path: items(`https://ivr.example.com/${app}.vxml`) })),
    );
    const response = await get('path/20180201/20180228/ALL');
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_FLOW_TOO_LARGE');
    expect(response.body).toEqual({
      error: 'the range holds more than 10000 form items, the most the diagnostic flow reports at once: ask for a shorter range or one number',
    });
    expect((await get('path/20180205/20180214/ALL')).status).toBe(200);
  });
});

const RESOURCES = [
  ['volume', 'volume/20180201/20180208/day'],
  ['events', 'events/20180201/20180208/day'],
  ['performance', 'performance/20180201/20180208/day'],
  ['caller profile', 'profile/20180201/20180208/day'],
  ['geographic', 'profile/20180201/20180208'],
  ['diagnostic flow', 'path/20180201/20180208'],
] as const;

describe.each(RESOURCES)('%s: what every raw-data resource shares', (_name, base) => {
  test('returns 401 with a challenge without credentials', async () => {
    const response = await request(server.url).get(`/api/${base}/ALL`);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="IVR reporting API"');
    expect(response.headers['x-error-code']).toBe('IVR_UNAUTHORIZED');
    expect(response.body).toEqual({ error: 'missing, invalid or expired credentials, or the account is inactive; authenticate at /api/auth' });
  });

  test('returns 400 for a number on another account', async () => {
    const response = await get(`${base}/${OTHER_PHONE}`);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe('IVR_PHONE_NOT_OWNED');
    expect(response.body).toEqual({ error: `phone ${OTHER_PHONE} is not on this account` });
  });

  test.each([
    ['start is not a real date', (path: string) => path.replace('20180201', '20180230'), 'IVR_INVALID_PARAMETER', 'start "20180230" is not a real date in the form YYYYMMDD (from 19700101)'],
    ['end is earlier than start', (path: string) => path.replace('20180208', '20180131'), 'IVR_END_BEFORE_START', 'end 20180131 is earlier than start 20180201'],
    ['the range is too long', (path: string) => path.replace('20180208', '20180305'), 'IVR_RANGE_TOO_LONG', 'the range covers 33 days; at most 31 days can be asked for at once'],
  ])('returns 400 when %s', async (_case, change, code, message) => {
    const response = await get(`${change(base)}/ALL`);
    expect(response.status).toBe(400);
    expect(response.headers['x-error-code']).toBe(code);
    expect(response.body).toEqual({ error: message });
  });

  test('returns 400 for a phone that is not a number', async () => {
    const response = await get(`${base}/1800FLOWERS`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'phone must be ALL or a number of 1-15 digits, not "1800FLOWERS"' });
  });

  test('returns 405 with Allow: GET, HEAD for POST', async () => {
    const response = await request(server.url).post(`/api/${base}/ALL`);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  test('serves HEAD with no body, counted in the data limit group it shares with the event tracker', async () => {
    const head = await request(server.url).head(`/api/${base}/ALL`).auth(credentials.login, credentials.password);
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
    const before = Number(head.headers['x-ratelimit-remaining']);
    const events = await get('events/20180201/20180201/day/ALL');
    expect(Number(events.headers['x-ratelimit-remaining'])).toBe(before - 1);
  });
});

test('tells the caller profile from the geographic report by the number of path segments, and refuses a period in the flow', async () => {
  expect(Object.keys((await get('profile/20180201/20180201/day/ALL')).body as object)).toEqual(['calls', 'callers']);
  expect(Object.keys((await get('profile/20180201/20180201/ALL')).body as object)).toEqual(['US', 'NON_US']);
  const withPeriod = await get('path/20180201/20180201/day/ALL');
  expect(withPeriod.status).toBe(404);
});
