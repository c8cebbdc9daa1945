import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';

const run = promisify(execFile);
let server: ServerProcess | undefined;

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
});

describe('the server process', () => {
  test('prints the demo credentials and curl commands that work as printed', async () => {
    server = startServerProcess({});
    await server.listening();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const printed = server.stdout();
    expect(printed).toContain('Demo account: tool=dev login=demo password=demo-password');
    const authCommand = /^ {2}(curl -s -X POST .*)$/m.exec(printed)?.[1] as string;
    const eventsCommand = /^ {2}(curl -s -u LOGIN:PASSWORD .*)$/m.exec(printed)?.[1] as string;
    const credentials = JSON.parse((await run('sh', ['-c', authCommand])).stdout) as { login: string; password: string };
    expect(credentials.login).toMatch(/^[0-9a-f]{32}$/);
    const report = JSON.parse(
      (await run('sh', ['-c', eventsCommand.replace('LOGIN:PASSWORD', `${credentials.login}:${credentials.password}`)])).stdout,
    ) as Record<string, Record<string, number>>;
    expect(Object.keys(report)).toEqual(['calls', 'log_events', 'loops_per_call', 'form_items', 'loops', 'average_form_items']);
    expect(Object.keys(report.calls!)).toHaveLength(7);
    expect(Object.values(report.calls!).reduce((sum, calls) => sum + calls, 0)).toBeGreaterThan(0);

    const bothCommand = /^ {2}(curl -s -u "\$\(curl .*)$/m.exec(printed)?.[1] as string;
    const sameReport = JSON.parse((await run('sh', ['-c', bothCommand])).stdout) as Record<string, Record<string, number>>;
    expect(sameReport).toEqual(report);
  });

  test('finishes a request in flight on SIGTERM, then exits 0', async () => {
    server = startServerProcess({});
    const url = new URL(await server.listening());
    const body = 'tool=dev&login=demo&password=demo-password';
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const pending = httpRequest(
        { host: url.hostname, port: url.port, method: 'POST', path: '/api/auth', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      pending.on('error', reject);
      pending.write(body.slice(0, 10));
      setTimeout(() => {
        server!.child.kill('SIGTERM');
        setTimeout(() => pending.end(body.slice(10)), 300);
      }, 200);
    });
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(text).toMatch(/^\{"login":"[0-9a-f]{32}","password":"[0-9a-f]{32}"\}$/);
    expect(await server.exited()).toBe(0);
  });

  test('exits 0 on SIGINT', async () => {
    server = startServerProcess({});
    await server.listening();
    server.child.kill('SIGINT');
    expect(await server.exited()).toBe(0);
  });

  test('stops with exit code 1 and a message naming the variable for a bad configuration', async () => {
    server = startServerProcess({ WEEK_START: 'friday' });
    expect(await server.exited()).toBe(1);
    expect(server.stderr()).toBe('invalid configuration: WEEK_START="friday": Invalid option: expected one of "monday"|"sunday"\n');
  });

  test('stops with exit code 1 and a message naming the record for a SEED_FILE with a bad record', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-seed-'));
    const seedFile = path.join(folder, 'seed.json');
    await writeFile(
      seedFile,
      JSON.stringify({
        accounts: [{ tool: 'dev', login: 'alice', password: 'pw', phones: ['15550001'] }],
        calls: [
          { call_id: 'c-1', phone: '15550001', started_at: '2018-02-07T10:15:00-05:00', log_events: 1, loops: 0, form_items: 0 },
          { call_id: 'c-2', phone: '15550001', started_at: 'yesterday', log_events: 1, loops: 0, form_items: 0 },
        ],
      }),
    );
    try {
      server = startServerProcess({ SEED_FILE: seedFile });
      expect(await server.exited()).toBe(1);
      expect(server.stderr()).toContain(`SEED_FILE ${seedFile}: calls[1] (call_id "c-2").started_at`);
      expect(server.stdout()).not.toContain('listening');
    } finally {
      await rm(folder, { recursive: true });
    }
  });

  test('serves the accounts and calls of a valid SEED_FILE instead of the demo data', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-seed-'));
    const seedFile = path.join(folder, 'seed.json');
    await writeFile(
      seedFile,
      JSON.stringify({
        accounts: [{ tool: 'fuse', login: 'alice', password: 'pw', timezone: 'America/New_York', phones: ['15550001'] }],
        calls: [{ call_id: 'c-1', phone: '15550001', started_at: '2018-02-07T10:15:00-05:00', log_events: 4, loops: 1, form_items: 2 }],
      }),
    );
    try {
      server = startServerProcess({ SEED_FILE: seedFile });
      const url = await server.listening();
      expect(server.stdout()).not.toContain('Demo account');
      const demo = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' }) });
      expect(demo.status).toBe(401);
      const auth = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'fuse', login: 'alice', password: 'pw' }) });
      const { login, password } = (await auth.json()) as { login: string; password: string };
      const events = await fetch(`${url}/api/events/20180207/20180207/day/15550001`, {
        headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
      });
      expect(await events.text()).toBe(
        '{"calls":{"1517979600":1},"log_events":{"1517979600":4},"loops_per_call":{"1517979600":1},"form_items":{"1517979600":2},"loops":{"1517979600":1},"average_form_items":{"1517979600":2}}',
      );
    } finally {
      await rm(folder, { recursive: true });
    }
  });
});
