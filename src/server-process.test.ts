import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NO_DEMO_DATA, startServerProcess, type ServerProcess, stopIfRunning } from '../test/support/server-process';

const run = promisify(execFile);
let server: ServerProcess | undefined;

afterEach(async () => {
  await stopIfRunning(server);
  server = undefined;
});

/** Sends a request's head with `Expect: 100-continue`; resolves once the server has it in flight, with a way to send the body. */
function requestInFlight(url: URL, body: string): Promise<{ sendBody: () => void; answer: Promise<{ status: number; text: string }> }> {
  return new Promise((inFlight, reject) => {
    let answered: (value: { status: number; text: string }) => void;
    const answer = new Promise<{ status: number; text: string }>((resolve) => (answered = resolve));
    const pending = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/auth',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length, expect: '100-continue' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => answered({ status: response.statusCode ?? 0, text }));
      },
    );
    pending.on('error', reject);
    pending.on('continue', () => inFlight({ sendBody: () => pending.end(body), answer }));
    pending.flushHeaders();
  });
}

describe('the server process', () => {
  test('prints the banner on standard error, with demo credentials and curl commands that work as printed', async () => {
    server = startServerProcess({});
    const url = await server.listening();
    const printed = server.messages.text();
    expect(printed.split('\n').slice(0, 9)).toEqual([
      `IVR reporting server listening on ${url} (in-memory store with demo data)`,
      'Rate limits and survey sessions: in this process',
      `Dashboard: ${url}/`,
      `API reference: ${url}/docs (OpenAPI document: ${url}/openapi.json)`,
      `Survey web service WSDL: ${url}/survey/plum?wsdl (plumEval), ${url}/survey?wsdl (svcEval)`,
      "Survey handler: the sample state table ('accepted', 'accepted again', 'rejected')",
      'Admin API: off (set ADMIN_TOKEN to turn it on)',
      "Clock: the system's (SANDBOX_CLOCK=true lets the admin API move it forward)",
      '',
    ]);
    expect(printed).toContain('Demo account: tool=dev login=demo password=demo-password');
    expect(printed.endsWith('\nStop with Ctrl+C.\n')).toBe(true);
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

    expect(printed).toContain(
      `The same credentials and dates work for ${url}/api/volume, ${url}/api/performance, ${url}/api/profile, ${url}/api/path\n` +
        '(geographic is profile without the period, and path has none either: .../{start}/{end}/{phone}).\n',
    );

    const bothCommand = /^ {2}(curl -s -u "\$\(curl .*)$/m.exec(printed)?.[1] as string;
    const sameReport = JSON.parse((await run('sh', ['-c', bothCommand])).stdout) as Record<string, Record<string, number>>;
    expect(sameReport).toEqual(report);
  });

  test('names a dashboard, an API reference and an OpenAPI document that answer at the addresses printed', async () => {
    server = startServerProcess(NO_DEMO_DATA);
    await server.listening();
    const printed = server.messages.text();
    const dashboard = /^Dashboard: (\S+)$/m.exec(printed)?.[1] as string;
    const [, docs, openapi] = /^API reference: (\S+) \(OpenAPI document: (\S+)\)$/m.exec(printed) ?? [];
    const answers = await Promise.all([dashboard, docs, openapi].map(async (address) => [address, (await fetch(address as string)).status]));
    expect(answers).toEqual([
      [dashboard, 200],
      [docs, 200],
      [openapi, 200],
    ]);
  });

  test('keeps standard output for JSON log lines only', async () => {
    server = startServerProcess({ ...NO_DEMO_DATA, LOG_LEVEL: 'info', ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const url = await server.listening();
    expect(server.messages.text()).toContain(`Admin API: on at ${url}/admin (Bearer ADMIN_TOKEN); survey calls in the call inspector at ${url}/inspector\n`);
    server.child.kill('SIGTERM');
    expect(await server.exited()).toBe(0);
    const lines = server.logs.text().split('\n').filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'listening',
      'shutting down: finishing requests in flight',
    ]);
  });

  test('warns, on the banner and as a log line, of NODE_ENV=production without PUBLIC_URL, and starts', async () => {
    server = startServerProcess({ LOG_LEVEL: 'info', NODE_ENV: 'production' });
    await server.listening();
    const warning =
      "NODE_ENV=production without PUBLIC_URL: the survey service's WSDL takes its address from each request's Host header; " +
      'set PUBLIC_URL to the address survey systems reach';
    expect(server.messages.text()).toContain(`\nWarning: ${warning}\n`);
    const lines = server.logs.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [40, warning],
      [30, 'listening'],
    ]);
  });

  test('with NODE_ENV=production, names the sandbox features set on the banner and in one log line', async () => {
    const production = { LOG_LEVEL: 'info', NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    server = startServerProcess({ ...production, SANDBOX_CLOCK: 'true', SANDBOX_SCENARIOS: 'true' });
    await server.listening();
    const warning =
      'NODE_ENV=production with sandbox features on: the movable clock (SANDBOX_CLOCK=true), failure scenarios (SANDBOX_SCENARIOS=true); ' +
      'they are for client authors: unset them unless this server is a sandbox';
    expect(server.messages.text()).toContain(`\nWarning: ${warning}\n`);
    const lines = server.logs.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [40, warning],
      [30, 'listening'],
    ]);
  });

  test('names a misspelt setting, on the banner and as a log line, with the setting it probably means, and starts without it', async () => {
    server = startServerProcess({ ...NO_DEMO_DATA, LOG_LEVEL: 'info', WEEK_STRAT: 'sunday', ADMIN_TOKNE: 'a-long-enough-admin-token' });
    await server.listening();
    const warnings = [
      'ADMIN_TOKNE is not a setting and is ignored: did you mean ADMIN_TOKEN?',
      'WEEK_STRAT is not a setting and is ignored: did you mean WEEK_START?',
    ];
    expect(server.messages.text()).toContain(`\n${warnings.map((warning) => `Warning: ${warning}\n`).join('')}`);
    expect(server.messages.text()).toContain('\nAdmin API: off (set ADMIN_TOKEN to turn it on)\n');
    const lines = server.logs.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([[40, warnings[0]], [40, warnings[1]], [30, 'listening']]);
  });

  test('names the public address in the banner when PUBLIC_URL is set', async () => {
    server = startServerProcess({ ...NO_DEMO_DATA, PUBLIC_URL: 'https://ivr.example.com', SOAP_PATH: '/soap/eval' });
    await server.listening();
    expect(server.messages.text()).toContain(
      '\nDashboard: https://ivr.example.com/\n' +
        'API reference: https://ivr.example.com/docs (OpenAPI document: https://ivr.example.com/openapi.json)\n' +
        'Survey web service WSDL: https://ivr.example.com/soap/eval/plum?wsdl (plumEval), https://ivr.example.com/soap/eval?wsdl (svcEval)\n',
    );
  });

  test('finishes a request in flight on SIGTERM, then exits 0', async () => {
    server = startServerProcess({ LOG_LEVEL: 'info' });
    const { sendBody, answer } = await requestInFlight(new URL(await server.listening()), 'tool=dev&login=demo&password=demo-password');
    server.child.kill('SIGTERM');
    await server.logs.waitFor(/"msg":"shutting down: finishing requests in flight"/);
    sendBody();
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(text).toMatch(/^\{"login":"[0-9a-f]{32}","password":"[0-9a-f]{32}"\}$/);
    expect(await server.exited()).toBe(0);
  });

  test('with SHUTDOWN_DRAIN_SECONDS, answers /readyz with 503 from SIGTERM on and goes on serving until a second signal, then exits 0', async () => {
    server = startServerProcess({ LOG_LEVEL: 'info', SHUTDOWN_DRAIN_SECONDS: '3600' });
    const url = await server.listening();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.logs.waitFor(/"msg":"shutting down: still serving for SHUTDOWN_DRAIN_SECONDS while \/readyz answers 503"/);
    const readiness = await fetch(`${url}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toEqual({
      status: 'unavailable',
      checks: { store: { status: 'ready' }, server: { status: 'unavailable', reason: 'the server is shutting down' } },
    });
    const auth = await fetch(`${url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' }) });
    expect(auth.status).toBe(200);
    server.child.kill('SIGINT');
    expect(await server.exited()).toBe(0);
    const lines = server.logs.text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; signal?: string; drainSeconds?: number });
    expect(lines.filter((line) => line.msg.startsWith('shutting down')).map(({ msg, signal, drainSeconds }) => ({ msg, signal, drainSeconds }))).toEqual([
      { msg: 'shutting down: still serving for SHUTDOWN_DRAIN_SECONDS while /readyz answers 503', signal: 'SIGTERM', drainSeconds: 3600 },
      { msg: 'shutting down: finishing requests in flight', signal: 'SIGINT', drainSeconds: undefined },
    ]);
  });

  test('exits 0 on SIGINT', async () => {
    server = startServerProcess(NO_DEMO_DATA);
    await server.listening();
    server.child.kill('SIGINT');
    expect(await server.exited()).toBe(0);
  });

  test('stops with exit code 1 and a message naming the variable for a bad configuration', async () => {
    server = startServerProcess({ WEEK_START: 'friday' });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe('invalid configuration: WEEK_START="friday": must be one of monday, sunday\n');
  });

  test('stops with exit code 1 and one line naming PORT and HOST when the port is in use', async () => {
    const occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen(0, '127.0.0.1', resolve));
    const { port } = occupant.address() as AddressInfo;
    try {
      server = startServerProcess({ ...NO_DEMO_DATA, PORT: String(port) });
      expect(await server.exited()).toBe(1);
      expect(server.messages.text()).toBe(
        `cannot listen on HOST=127.0.0.1 PORT=${port}: the port is in use by another program; set PORT to a free port (0 picks one)\n`,
      );
    } finally {
      await new Promise((resolve) => occupant.close(resolve));
    }
  });

  test('stops with exit code 1 and one line naming HOST when no interface has that address', async () => {
    // 192.0.2.1 is reserved for documentation (TEST-NET-1): no machine has it, and binding sends nothing.
    server = startServerProcess({ ...NO_DEMO_DATA, HOST: '192.0.2.1', PORT: '3000' });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe(
      'cannot listen on HOST=192.0.2.1 PORT=3000: no interface of this machine has that address; set HOST to one of its addresses (127.0.0.1, 0.0.0.0)\n',
    );
  });

  test('stops with exit code 1 and a message saying STORE=postgres needs DATABASE_URL', async () => {
    server = startServerProcess({ STORE: 'postgres' });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe('invalid configuration: DATABASE_URL is required when STORE=postgres\n');
  });

  test('stops with exit code 1 on a short ADMIN_TOKEN without printing it', async () => {
    server = startServerProcess({ ADMIN_TOKEN: 'hunter2-token' });
    expect(await server.exited()).toBe(1);
    expect(server.messages.text()).toBe('invalid configuration: ADMIN_TOKEN (value not shown): must be at least 16 characters\n');
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
      expect(server.messages.text()).toContain(`SEED_FILE ${seedFile}: calls[1] (call_id "c-2").started_at`);
      expect(server.messages.text()).not.toContain('listening');
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
      expect(server.messages.text()).not.toContain('Demo account');
      expect(server.messages.text()).toContain(`\nSeed file ${seedFile}: 1 account, 1 number, 1 call stored (0 duplicates)\n`);
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
