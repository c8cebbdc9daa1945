import { callRecordSchema } from '../domain/call-record';
import { admin, ADMIN_TOKEN, startAdminServer, type AdminServer } from '../../test/support/admin';
import { runCli, scratchFolder } from '../../test/support/cli';

describe('ivr-reporting demo', () => {
  test('writes valid call records as NDJSON, on the numbers asked for', async () => {
    const run = await runCli(['demo', '--days', '14', '--phones', '2', '--calls-per-day', '20', '--seed', '5']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    const records = lines.map((line) => callRecordSchema.parse(JSON.parse(line)));
    expect(new Set(records.map((record) => record.phone))).toEqual(new Set(['18005550200', '18005550201']));
    expect(new Set(records.map((record) => record.callId)).size).toBe(records.length);
  });

  test('refuses a count that is not a whole number, naming the option', async () => {
    const run = await runCli(['demo', '--days', 'many']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: option '--days <n>' argument 'many' is invalid. must be a whole number from 1 to 36600");
  });

  describe('output', () => {
    let running: AdminServer;
    let files: Awaited<ReturnType<typeof scratchFolder>>;

    beforeEach(async () => {
      running = await startAdminServer();
      files = await scratchFolder();
    });

    afterEach(async () => {
      await running.server.close();
      await files.remove();
    });

    test('imports cleanly into an account that has its numbers', async () => {
      const demo = await runCli(['demo', '--days', '30', '--phones', '3', '--first-phone', '15550100', '--timezone', 'Europe/Paris']);
      const file = await files.write('demo.ndjson', demo.stdout);
      const count = demo.stdout.trimEnd().split('\n').length;
      await admin(running.url).put('/admin/accounts/fuse/demo').send({ password: 'pw', timezone: 'Europe/Paris' });
      for (const phone of ['15550100', '15550101', '15550102']) await admin(running.url).put(`/admin/accounts/fuse/demo/phones/${phone}`);

      const run = await runCli(['import', file, '--url', running.url, '--token', ADMIN_TOKEN]);
      expect(run.stdout).toBe(`${count.toLocaleString('en-US')} records read: ${count.toLocaleString('en-US')} inserted, 0 duplicates, 0 rejected\n`);
      expect(run.code).toBe(0);
    });
  });
});
