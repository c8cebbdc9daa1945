import { ADMIN_TOKEN, postNdjson, startAdminServer, type AdminServer } from '../../test/support/admin';
import { runCli } from '../../test/support/cli';
import { addAccount } from '../../test/support/test-app';

let running: AdminServer;

afterEach(() => running.server.close());

const cli = (args: readonly string[]) => runCli(args, { env: { PUBLIC_URL: running.url, ADMIN_TOKEN } });

const line = (callId: string, startedAt: string) =>
  JSON.stringify({ call_id: callId, phone: '15550001', started_at: startedAt, log_events: 0, loops: 0, form_items: 0 });

describe('ivr-reporting retention', () => {
  test("--dry-run says which months past the server's RETENTION_MONTHS would go; without it they go", async () => {
    // The fake clock is on 7 February 2018: with 1 month kept, December goes.
    running = await startAdminServer({ RETENTION_MONTHS: '1' });
    await addAccount(running.testApp.store, { phones: ['15550001'] });
    await postNdjson(running.url, [line('dec-1', '2017-12-20T12:00:00Z'), line('dec-2', '2017-12-21T12:00:00Z'), line('jan', '2018-01-10T12:00:00Z')]);
    const kept = 'raw calls kept from 2018-01 (RETENTION_MONTHS=1); their rollups are kept for ever\n';
    expect(await cli(['retention', '--dry-run'])).toEqual({ code: 0, stdout: `${kept}would drop 2017-12: 2 calls\n`, stderr: '' });
    expect(await cli(['retention'])).toEqual({ code: 0, stdout: `${kept}dropped 2017-12: 2 calls\n`, stderr: '' });
    expect(await cli(['retention'])).toEqual({ code: 0, stdout: `${kept}nothing to drop\n`, stderr: '' });
    expect(await cli(['retention', '--dry-run'])).toEqual({ code: 0, stdout: `${kept}nothing would be dropped\n`, stderr: '' });
  });

  test('says that every call is kept on a server without RETENTION_MONTHS', async () => {
    running = await startAdminServer();
    expect(await cli(['retention', '--dry-run'])).toEqual({ code: 0, stdout: 'RETENTION_MONTHS is not set on the server: every raw call is kept\n', stderr: '' });
  });
});
