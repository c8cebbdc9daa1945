import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ADMIN_TOKEN } from '../admin/support';

describe('ivr-reporting serve', () => {
  test('runs the server with its demo data and the admin API, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ADMIN_TOKEN },
    });
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      while (!/listening on http/.test(out)) await once(child.stdout, 'data');
      expect(out).toContain('Demo account: tool=dev login=demo password=demo-password');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
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
