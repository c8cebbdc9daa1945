import request from 'supertest';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../test/support/admin';
import { authenticate } from '../../test/support/reporting';
import { runCli } from '../../test/support/cli';

let running: AdminServer;

beforeEach(async () => {
  running = await startAdminServer({ DEFAULT_TIMEZONE: 'UTC' });
});

afterEach(() => running.server.close());

const cli = (args: readonly string[], input?: string) => runCli(args, { env: { PUBLIC_URL: running.url, ADMIN_TOKEN }, input });

describe('ivr-reporting accounts', () => {
  test('adds an account that can log in, and refuses to add it twice', async () => {
    const added = await cli(['accounts', 'add', 'fuse', 'acme', '--password', 'acme password', '--timezone', 'America/New_York']);
    expect([added.code, added.stdout]).toEqual([0, 'created fuse/acme  active  America/New_York  no numbers\n']);
    await authenticate(running.url, { tool: 'fuse', login: 'acme', password: 'acme password' });

    const again = await cli(['accounts', 'add', 'fuse', 'acme', '--password', 'other']);
    expect([again.code, again.stderr]).toEqual([1, 'ivr-reporting: account fuse/acme exists already; change it with "accounts set"\n']);
  });

  test('reads the password from standard input with --password-stdin', async () => {
    const added = await cli(['accounts', 'add', 'dev', 'acme', '--password-stdin'], 'from stdin\nignored\n');
    expect(added.code).toBe(0);
    await authenticate(running.url, { login: 'acme', password: 'from stdin' });
  });

  test('sets the state, time zone and password of an existing account only', async () => {
    await cli(['accounts', 'add', 'dev', 'acme', '--password', 'first']);
    const set = await cli(['accounts', 'set', 'dev', 'acme', '--inactive', '--timezone', 'Asia/Tokyo']);
    expect([set.code, set.stdout]).toEqual([0, 'updated dev/acme  inactive  Asia/Tokyo  no numbers\n']);
    expect((await cli(['accounts', 'set', 'dev', 'acme', '--active', '--password', 'second'])).code).toBe(0);
    await authenticate(running.url, { login: 'acme', password: 'second' });

    const missing = await cli(['accounts', 'set', 'dev', 'nobody', '--active']);
    expect([missing.code, missing.stderr]).toEqual([1, 'ivr-reporting: no account dev/nobody; create it with "accounts add"\n']);
  });

  test('lists the accounts as a table, or as JSON', async () => {
    await admin(running.url).put('/admin/accounts/dev/acme').send({ password: 'pw', timezone: 'America/New_York' });
    await admin(running.url).put('/admin/accounts/dev/acme/phones/18005550200');
    await admin(running.url).put('/admin/accounts/fuseplus/b').send({ password: 'pw', active: false });
    const table = await cli(['accounts', 'list']);
    expect(table.stdout).toBe(
      [
        'TOOL      LOGIN  ACTIVE  TIMEZONE          NUMBERS',
        'dev       acme   yes     America/New_York  18005550200',
        'fuseplus  b      no      UTC',
        '',
      ].join('\n'),
    );
    const json = await cli(['accounts', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual((await admin(running.url).get('/admin/accounts')).body);
  });

  test('refuses an unknown tool before sending anything', async () => {
    const run = await cli(['accounts', 'add', 'excel', 'acme', '--password', 'pw']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: command-argument value 'excel' is invalid for argument 'tool'. must be one of dev, fuse, insight, fuseplus");
  });

  test('revokes the temporary credentials of an account, and says so for an unknown one', async () => {
    await cli(['accounts', 'add', 'dev', 'acme', '--password', 'pw', '--timezone', 'Asia/Tokyo']);
    const { login, password } = await authenticate(running.url, { login: 'acme', password: 'pw' });
    const revoked = await cli(['accounts', 'revoke', 'dev', 'acme']);
    expect([revoked.code, revoked.stdout]).toEqual([0, 'revoked the temporary credentials of dev/acme  active  Asia/Tokyo  no numbers\n']);
    const refused = await request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(login, password);
    expect(refused.status).toBe(401);

    const missing = await cli(['accounts', 'revoke', 'dev', 'nobody']);
    expect([missing.code, missing.stderr]).toEqual([1, 'ivr-reporting: DELETE /admin/accounts/dev/nobody/credentials: 404 no account dev/nobody\n']);
  });

  test('deletes an account with its numbers and their calls, and says so for an unknown one', async () => {
    await cli(['accounts', 'add', 'dev', 'acme', '--password', 'pw']);
    await admin(running.url).put('/admin/accounts/dev/acme/phones/18005550200');
    await cli(['accounts', 'add', 'dev', 'empty', '--password', 'pw']);
    const { login, password } = await authenticate(running.url, { login: 'acme', password: 'pw' });
    const deleted = await cli(['accounts', 'delete', 'dev', 'acme']);
    expect([deleted.code, deleted.stdout]).toEqual([0, 'deleted dev/acme (numbers 18005550200 released, their calls deleted)\n']);
    expect((await request(running.url).get('/api/events/20180201/20180201/day/ALL').auth(login, password)).status).toBe(401);
    expect((await admin(running.url).get('/admin/accounts/dev/acme')).status).toBe(404);
    expect((await cli(['accounts', 'delete', 'dev', 'empty'])).stdout).toBe('deleted dev/empty (no numbers)\n');

    const missing = await cli(['accounts', 'delete', 'dev', 'acme']);
    expect([missing.code, missing.stderr]).toEqual([1, 'ivr-reporting: no account dev/acme\n']);
  });

  test('says what to do when no admin token is given', async () => {
    const run = await runCli(['accounts', 'list', '--url', running.url]);
    expect([run.code, run.stderr]).toEqual([
      1,
      'ivr-reporting: no admin token: pass --token or set ADMIN_TOKEN to the value the server was started with\n',
    ]);
  });
});

describe('ivr-reporting phones', () => {
  beforeEach(async () => {
    await admin(running.url).put('/admin/accounts/dev/acme').send({ password: 'pw' });
    await admin(running.url).put('/admin/accounts/dev/other').send({ password: 'pw' });
  });

  test('assigns numbers and releases them', async () => {
    const added = await cli(['phones', 'add', 'dev', 'acme', '18005550200', '+18005550201', '18005550200']);
    expect([added.code, added.stdout]).toEqual([
      0,
      '18005550200 assigned to dev/acme\n+18005550201 assigned to dev/acme\n18005550200 was already on dev/acme\n',
    ]);
    const removed = await cli(['phones', 'remove', 'dev', 'acme', '18005550200']);
    expect([removed.code, removed.stdout]).toEqual([0, '18005550200 released from dev/acme\n']);
    expect((await admin(running.url).get('/admin/accounts/dev/acme')).body.phones).toEqual(['18005550201']);
  });

  test('exits 1 for a number on another account', async () => {
    await cli(['phones', 'add', 'dev', 'other', '18005550200']);
    const run = await cli(['phones', 'add', 'dev', 'acme', '18005550200']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'ivr-reporting: PUT /admin/accounts/dev/acme/phones/18005550200: 409 phone 18005550200 is on another account; release it there first\n',
    );
  });
});
