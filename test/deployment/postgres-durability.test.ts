import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startServerProcess, type ServerProcess, stopIfRunning } from '../support/server-process';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/services';

const ADMIN_TOKEN = 'a-durable-admin-token';
const SEED = {
  accounts: [{ tool: 'dev', login: 'alice', password: 'secret-password', active: true, timezone: 'America/New_York', phones: ['15550001'] }],
  calls: [
    { call_id: 'seed-1', phone: '15550001', started_at: '2018-02-01T09:00:00-05:00', log_events: 4, loops: 1, form_items: 2 },
    { call_id: 'seed-2', phone: '15550001', started_at: '2018-02-01T23:30:00-05:00', log_events: 6, loops: 0, form_items: 1 },
  ],
};
const EVENTS = '/api/events/20180201/20180202/day/15550001';
const DAYS = ['1517461200', '1517547600'];

let schema: TestSchema;
let folder: string;
let seedFile: string;
const servers: ServerProcess[] = [];

beforeEach(async () => {
  schema = await createTestSchema();
  folder = await mkdtemp(path.join(os.tmpdir(), 'ivr-durable-'));
  seedFile = path.join(folder, 'seed.json');
  await writeFile(seedFile, JSON.stringify(SEED));
});

afterEach(async () => {
  for (const server of servers.splice(0)) await stopIfRunning(server);
  await schema.drop();
  await rm(folder, { recursive: true, force: true });
});

async function startOnPostgres(): Promise<string> {
  const server = startServerProcess({ STORE: 'postgres', DATABASE_URL: schema.url, SEED_FILE: seedFile, ADMIN_TOKEN });
  servers.push(server);
  return server.listening();
}

async function authenticate(url: string): Promise<{ login: string; password: string }> {
  const response = await request(url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
  expect(response.status).toBe(200);
  return response.body as { login: string; password: string };
}

describeWithPostgres('the server on PostgreSQL', () => {
  test('authenticates and reports the seeded calls per local day', async () => {
    const url = await startOnPostgres();
    const { login, password } = await authenticate(url);
    const response = await request(url).get(EVENTS).auth(login, password);
    expect(response.status).toBe(200);
    expect(response.body.calls).toEqual({ [DAYS[0]!]: 2, [DAYS[1]!]: 0 });
    expect(response.body.log_events).toEqual({ [DAYS[0]!]: 10, [DAYS[1]!]: 0 });
    expect(response.headers['x-ratelimit-remaining']).toBe('149');
  });

  test('keeps temporary credentials and a call acknowledged by POST /admin/calls through kill -9 and a new process', async () => {
    const first = await startOnPostgres();
    const { login, password } = await authenticate(first);
    const imported = await request(first)
      .post('/admin/calls')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(`${JSON.stringify({ call_id: 'live-1', phone: '15550001', started_at: '2018-02-02T08:00:00-05:00', log_events: 3, loops: 2, form_items: 1 })}\n`);
    expect(imported.body).toEqual({ received: 1, inserted: 1, duplicates: 0, rejected: [] });
    const killed = servers[0]!;
    killed.child.kill('SIGKILL');
    await killed.exited();

    const second = await startOnPostgres();
    const response = await request(second).get(EVENTS).auth(login, password);
    expect(response.status).toBe(200);
    expect(response.body.calls).toEqual({ [DAYS[0]!]: 2, [DAYS[1]!]: 1 });
    expect(response.body.loops).toEqual({ [DAYS[0]!]: 1, [DAYS[1]!]: 2 });
  });
});
