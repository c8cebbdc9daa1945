import request from 'supertest';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../test/support/admin';
import { basic, serve } from '../../test/support/http';
import { authenticate } from '../../test/support/reporting';
import { runCli } from '../../test/support/cli';
import { addAccount, buildTestApp } from '../../test/support/test-app';

const EVENTS = '/api/events/20180201/20180207/day/ALL';
const ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
// The fake clock's start (test/support/fake-clock.ts).
const START = '2018-02-07T15:00:00.000Z';

let running: AdminServer;

beforeEach(async () => {
  running = await startAdminServer({ DEFAULT_TIMEZONE: 'UTC' });
});

afterEach(() => running.server.close());

const cli = (args: readonly string[]) => runCli(args, { env: { PUBLIC_URL: running.url, ADMIN_TOKEN } });
const scenarios = async () => ((await admin(running.url).get('/admin/scenarios')).body as { scenarios: { id: string }[] }).scenarios;

async function added(args: readonly string[]): Promise<string> {
  const run = await cli(['scenario', 'add', ...args]);
  expect([run.code, run.stderr]).toEqual([0, '']);
  return run.stdout.split(' ')[0] ?? '';
}

describe('ivr-reporting scenario add', () => {
  test("prints the id and what it does, and the server answers the account's next data requests with it", async () => {
    await addAccount(running.testApp.store);
    const { login, password } = await authenticate(running.url);
    const run = await cli(['scenario', 'add', 'data', '--account', 'dev/alice', '--status', '429', '--times', '2']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${ID} added: data of dev/alice answers 429, the next 2 requests\\n$`));
    const id = run.stdout.slice(0, 36);
    expect(await scenarios()).toEqual([
      { id, target: 'data', tool: 'dev', login: 'alice', status: 429, times: 2, fired: 0, active: true, created_at: START },
    ]);

    const forced = await request(running.url).get(EVENTS).set('Authorization', basic(login, password));
    expect([forced.status, forced.headers['x-sandbox-scenario']]).toEqual([429, id]);
  });

  test('sends every field, and describes a delay, an address and a fault string', async () => {
    const fault = 'down for "maintenance"';
    const surveyArgs = 'scenario add survey --client-address 10.0.0.7 --status 503 --delay-ms 5 --times 1'.split(' ');
    const survey = await cli([...surveyArgs, '--fault-string', fault]);
    expect(survey.stdout.slice(36)).toBe(' added: survey from 10.0.0.7 answers 503 "down for \\"maintenance\\"" after 5 ms, the next request\n');
    const delay = await cli(['scenario', 'add', 'events', '--delay-ms', '300']);
    expect(delay.stdout).toMatch(new RegExp(`^${ID} added: events delays the real answer 300 ms, every request until removed\\n$`));
    const both = await cli(['scenario', 'add', 'auth', '--account', 'fuse/a/b', '--client-address', '::1', '--status', '401']);
    expect(both.stdout).toMatch(new RegExp(`^${ID} added: auth of fuse/a/b from ::1 answers 401, every request until removed\\n$`));
    const retry = await cli(['scenario', 'add', 'data', '--status', '429', '--retry-after-seconds', '2', '--times', '3']);
    expect(retry.stdout).toMatch(new RegExp(`^${ID} added: data answers 429 \\(Retry-After 2\\), the next 3 requests\\n$`));
    expect(await scenarios()).toEqual([
      expect.objectContaining({ fault_string: fault, target: 'survey', client_address: '10.0.0.7', status: 503, delay_ms: 5, times: 1 }),
      expect.objectContaining({ target: 'events', delay_ms: 300 }),
      expect.objectContaining({ target: 'auth', tool: 'fuse', login: 'a/b', client_address: '::1', status: 401 }),
      expect.objectContaining({ target: 'data', status: 429, retry_after_seconds: 2, times: 3 }),
    ]);
  });

  test('sends a delay given as a distribution in JSON, and describes it as given', async () => {
    const uniform = await cli(['scenario', 'add', 'events', '--delay-ms', '{"uniform":[100,900]}']);
    expect(uniform.stdout).toMatch(new RegExp(`^${ID} added: events delays the real answer 100 to 900 ms \\(uniform\\), every request until removed\\n$`));
    const logNormal = await cli(['scenario', 'add', 'data', '--status', '503', '--delay-ms', '{"median":200,"p99":2000}', '--times', '1']);
    expect(logNormal.stdout).toMatch(new RegExp(`^${ID} added: data answers 503 after a median of 200 ms \\(p99 2000 ms\\), the next request\\n$`));
    expect(await scenarios()).toEqual([
      expect.objectContaining({ target: 'events', delay_ms: { uniform: [100, 900] } }),
      expect.objectContaining({ target: 'data', delay_ms: { median: 200, p99: 2000 } }),
    ]);
    const table = await cli(['scenario', 'list']);
    expect(table.stdout.split('\n').map((line) => line.slice(38).trimEnd())).toEqual([
      'TARGET  FOR     ANSWER                                         FIRED         STATE',
      'events  anyone  the real answer after 100 to 900 ms (uniform)  0 (no limit)  active',
      'data    anyone  503 after a median of 200 ms (p99 2000 ms)     0/1           active',
      '',
    ]);
  });

  test('sends a probability and its seed, and describes them; the list shows them', async () => {
    const run = await cli(['scenario', 'add', 'data', '--status', '500', '--probability', '0.05', '--seed', '42']);
    expect(run.stdout).toMatch(new RegExp(`^${ID} added: data answers 500 with probability 0.05 \\(seed 42\\), every request until removed\\n$`));
    const delayed = await cli(['scenario', 'add', 'events', '--delay-ms', '300', '--probability', '.5', '--seed', '7', '--times', '2']);
    expect(delayed.stdout).toMatch(new RegExp(`^${ID} added: events delays the real answer 300 ms with probability 0.5 \\(seed 7\\), the next 2 requests\\n$`));
    expect(await scenarios()).toEqual([
      expect.objectContaining({ target: 'data', status: 500, probability: 0.05, seed: 42 }),
      expect.objectContaining({ target: 'events', delay_ms: 300, probability: 0.5, seed: 7, times: 2 }),
    ]);
    const table = await cli(['scenario', 'list']);
    expect(table.stdout.split('\n').map((line) => line.slice(38).trimEnd())).toEqual([
      'TARGET  FOR     ANSWER                                                      FIRED         STATE',
      'data    anyone  500 with probability 0.05 (seed 42)                         0 (no limit)  active',
      'events  anyone  the real answer after 300 ms with probability 0.5 (seed 7)  0/2           active',
      '',
    ]);
  });

  test('sends a connection fault and a drip with its rate, and describes them; the list shows them', async () => {
    const reset = await cli(['scenario', 'add', 'auth', '--connection', 'reset', '--delay-ms', '300', '--times', '1']);
    expect(reset.stdout).toMatch(new RegExp(`^${ID} added: auth answers a reset connection after 300 ms, the next request\\n$`));
    const drip = await cli(['scenario', 'add', 'survey', '--status', '503', '--connection', 'drip', '--bytes-per-second', '200']);
    expect(drip.stdout).toMatch(new RegExp(`^${ID} added: survey answers 503 at 200 bytes/s, every request until removed\\n$`));
    const truncated = await cli(['scenario', 'add', 'events', '--connection', 'truncated', '--probability', '0.2', '--seed', '3']);
    expect(truncated.stdout).toMatch(new RegExp(`^${ID} added: events answers the real answer, truncated with probability 0.2 \\(seed 3\\), every request until removed\\n$`));
    expect(await scenarios()).toEqual([
      expect.objectContaining({ target: 'auth', connection: 'reset', delay_ms: 300, times: 1 }),
      expect.objectContaining({ target: 'survey', status: 503, connection: 'drip', bytes_per_second: 200 }),
      expect.objectContaining({ target: 'events', connection: 'truncated', probability: 0.2, seed: 3 }),
    ]);
    const table = await cli(['scenario', 'list']);
    expect(table.stdout.split('\n').map((line) => line.slice(38).trimEnd())).toEqual([
      'TARGET  FOR     ANSWER                                                    FIRED         STATE',
      'auth    anyone  a reset connection after 300 ms                           0/1           active',
      'survey  anyone  503 at 200 bytes/s                                        0 (no limit)  active',
      'events  anyone  the real answer, truncated with probability 0.2 (seed 3)  0 (no limit)  active',
      '',
    ]);
  });

  test("shows the server's refusal of a status with a reset, and exits 1", async () => {
    const run = await cli(['scenario', 'add', 'data', '--status', '500', '--connection', 'reset']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ivr-reporting: POST /admin/scenarios: 400 status: cannot go with connection reset, which sends no status\n',
    });
  });

  test.each([['often'], ['1/10'], ['-0.1']])('refuses --probability %s before asking the server, and exits 1', async (probability) => {
    const run = await cli(['scenario', 'add', 'data', '--status', '500', '--probability', probability]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`option '--probability <p>' argument '${probability}' is invalid. must be a number above 0 and at most 1, e.g. 0.1`);
    expect(await scenarios()).toEqual([]);
  });

  test("shows the server's refusal of a seed without a probability", async () => {
    expect(await cli(['scenario', 'add', 'data', '--status', '500', '--seed', '7'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ivr-reporting: POST /admin/scenarios: 400 seed: needs a probability\n',
    });
  });

  test.each([['slow'], ['[100,900]'], ['-5']])('refuses --delay-ms %s before asking the server, and exits 1', async (delay) => {
    const run = await cli(['scenario', 'add', 'data', '--delay-ms', delay]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `option '--delay-ms <ms>' argument '${delay}' is invalid. must be a whole number of milliseconds, or a distribution in JSON: {"uniform":[min,max]} or {"median":m,"p99":n}`,
    );
    expect(await scenarios()).toEqual([]);
  });

  test("shows the server's refusal of a distribution, naming the field", async () => {
    const run = await cli(['scenario', 'add', 'data', '--delay-ms', '{"uniform":[900,100]}']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ivr-reporting: POST /admin/scenarios: 400 delay_ms.uniform: its min must not be above its max\n',
    });
  });

  test("shows the server's refusal, naming the field, and exits 1", async () => {
    const status = await cli(['scenario', 'add', 'data', '--status', '404']);
    expect(status).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ivr-reporting: POST /admin/scenarios: 400 status: must be one of 401, 429, 500, 503 (for the survey 429, 500, 503)\n',
    });
    const nothing = await cli(['scenario', 'add', 'data']);
    expect([nothing.code, nothing.stderr]).toEqual([
      1,
      'ivr-reporting: POST /admin/scenarios: 400 status: a scenario needs a status, a delay_ms or a connection\n',
    ]);
    const target = await cli(['scenario', 'add', 'reports', '--status', '500']);
    expect([target.code, target.stderr]).toEqual([
      1,
      'ivr-reporting: POST /admin/scenarios: 400 target: must be one of auth, data, volume, events, performance, caller-profile, geographic, flow, survey\n',
    ]);
    expect(await scenarios()).toEqual([]);
  });

  test('refuses a number or an account it cannot send before sending anything', async () => {
    const times = await cli(['scenario', 'add', 'data', '--status', '500', '--times', 'twice']);
    expect(times.code).toBe(1);
    expect(times.stderr).toContain("error: option '--times <n>' argument 'twice' is invalid. must be a whole number");
    const account = await cli(['scenario', 'add', 'data', '--status', '500', '--account', 'alice']);
    expect(account.code).toBe(1);
    expect(account.stderr).toContain("error: option '--account <tool/login>' argument 'alice' is invalid. must be TOOL/LOGIN, e.g. dev/acme");
    const tool = await cli(['scenario', 'add', 'data', '--status', '500', '--account', 'excel/alice']);
    expect(tool.stderr).toContain("argument 'excel/alice' is invalid. must be one of dev, fuse, insight, fuseplus");
    expect(await scenarios()).toEqual([]);
  });

  test('says so when the server runs with SANDBOX_SCENARIOS=false', async () => {
    await running.server.close();
    running = await startAdminServer({ SANDBOX_SCENARIOS: 'false' });
    const run = await cli(['scenario', 'add', 'data', '--status', '500']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      '',
      'ivr-reporting: POST /admin/scenarios: 409 scenarios are off on this server: start it with SANDBOX_SCENARIOS=true (the default, but with NODE_ENV=production) to add them\n',
    ]);
  });

  test('says so when the admin API is off', async () => {
    const server = await serve(buildTestApp({}).app);
    try {
      const run = await runCli(['scenario', 'list'], { env: { PUBLIC_URL: server.url, ADMIN_TOKEN } });
      expect([run.code, run.stderr]).toEqual([
        1,
        'ivr-reporting: GET /admin/scenarios: 404 no resource at /admin/scenarios; the admin API is off: start the server with ADMIN_TOKEN set\n',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('ivr-reporting scenario list', () => {
  test('lists the scenarios oldest first with their use, as a table or as JSON', async () => {
    await addAccount(running.testApp.store);
    const { login, password } = await authenticate(running.url);
    const once = await added(['data', '--account', 'dev/alice', '--status', '500', '--times', '1']);
    const always = await added(['survey', '--client-address', '10.0.0.7', '--status', '503', '--fault-string', 'down', '--delay-ms', '5']);
    expect((await request(running.url).get(EVENTS).set('Authorization', basic(login, password))).status).toBe(500);

    const table = await cli(['scenario', 'list']);
    expect([table.code, table.stdout]).toEqual([
      0,
      [
        `ID${' '.repeat(34)}  TARGET  FOR        ANSWER                 FIRED         STATE`,
        `${once}  data    dev/alice  500                    1/1           used up`,
        `${always}  survey  10.0.0.7   503 "down" after 5 ms  0 (no limit)  active`,
        '',
      ].join('\n'),
    ]);
    const json = await cli(['scenario', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual((await admin(running.url).get('/admin/scenarios')).body);
  });

  test('prints the header alone when there are none', async () => {
    expect(await cli(['scenario', 'list'])).toEqual({ code: 0, stdout: `ID  TARGET  FOR  ANSWER  FIRED  STATE\n`, stderr: '' });
  });
});

describe('ivr-reporting scenario remove', () => {
  test('removes scenarios by id, and says so for one the server does not have', async () => {
    const first = await added(['data', '--status', '500']);
    const second = await added(['auth', '--status', '429']);
    const third = await added(['flow', '--delay-ms', '10']);
    const removed = await cli(['scenario', 'remove', first, third]);
    expect([removed.code, removed.stdout]).toEqual([0, `${first} removed\n${third} removed\n`]);
    expect((await scenarios()).map((scenario) => scenario.id)).toEqual([second]);

    const again = await cli(['scenario', 'remove', first]);
    expect([again.code, again.stderr]).toEqual([1, `ivr-reporting: DELETE /admin/scenarios/${first}: 404 no scenario ${first}\n`]);
    const notAnId = await cli(['scenario', 'remove', 'nothing']);
    expect([notAnId.code, notAnId.stderr]).toEqual([
      1,
      'ivr-reporting: DELETE /admin/scenarios/nothing: 400 id: must be a scenario id, as POST /admin/scenarios answered it (a UUID)\n',
    ]);
  });

  test('removes every scenario with --all and says how many', async () => {
    await added(['data', '--status', '500']);
    await added(['auth', '--status', '429']);
    expect(await cli(['scenario', 'remove', '--all'])).toEqual({ code: 0, stdout: 'removed 2 scenarios\n', stderr: '' });
    expect(await scenarios()).toEqual([]);
    expect(await cli(['scenario', 'remove', '--all'])).toEqual({ code: 0, stdout: 'removed 0 scenarios\n', stderr: '' });
  });

  test('takes ids or --all, exactly one of them', async () => {
    const id = await added(['data', '--status', '500']);
    const neither = await cli(['scenario', 'remove']);
    expect(neither).toEqual({ code: 1, stdout: '', stderr: 'ivr-reporting: give the ids of the scenarios to remove, or --all\n' });
    const both = await cli(['scenario', 'remove', id, '--all']);
    expect(both).toEqual({ code: 1, stdout: '', stderr: 'ivr-reporting: give scenario ids or --all, not both\n' });
    expect((await scenarios()).map((scenario) => scenario.id)).toEqual([id]);
  });
});
