import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ADMIN_TOKEN } from '../../test/support/admin';
import { CLI_BIN } from '../../test/support/cli';

describe('ivr-reporting serve', () => {
  test('runs the server with its demo data and the admin API, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'serve'], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ADMIN_TOKEN },
    });
    try {
      let banner = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (banner += chunk));
      while (!banner.includes('Stop with Ctrl+C.\n')) await once(child.stderr, 'data');
      expect(banner).toContain('Demo account: tool=dev login=demo password=demo-password');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] as string;
      expect(banner).toContain(`Admin API: on at ${url}/admin (Bearer ADMIN_TOKEN); survey calls in the call inspector at ${url}/inspector\n`);
      const accounts = await fetch(`${url}/admin/accounts`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(((await accounts.json()) as { accounts: { login: string }[] }).accounts.map((account) => account.login)).toEqual(['demo']);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
