/**
 * The survey web service under measurement, in a process of its own (pinned to a core by the parent for
 * the svcEval figure, its standard output, the access log at LOG_LEVEL=info, into a file): the real app.
 * Announces its URLs; answers the parent's 'reset' and 'report' messages with the longest event-loop
 * delay the process had since the last reset. Its baseline is bench/soap-only-server.ts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as AccountModule from '../src/accounts/account';
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import { compiled, serverModules } from './compiled';
import { announce } from './processes';
import { settings } from './settings';

export interface SurveyServer {
  readonly survey: string;
  readonly report: string;
  readonly authorization: string;
}

async function main(): Promise<void> {
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const { composeApp, loadConfig, listen, listenOptions } = await serverModules();
  const config = loadConfig({ SURVEY_RATE_LIMIT: '1000000000', DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', LOG_LEVEL: settings.serverLogLevel });
  const store = createMemoryStore();
  const id = accountId('dev', 'bench');
  await store.accounts.save({ id, tool: 'dev', login: 'bench', passwordHash: await hashPassword('bench'), active: true, timeZone: 'UTC', credentialGeneration: 0 });
  await store.phones.assign('18005550100', id);
  const app = await listen(composeApp(config, { store }), '127.0.0.1', 0, listenOptions(config.server));
  const auth = await fetch(`${app.url}/api/auth`, { method: 'POST', body: new URLSearchParams({ tool: 'dev', login: 'bench', password: 'bench' }) });
  const { login, password } = (await auth.json()) as { login: string; password: string };
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  process.on('message', (message) => {
    if (message === 'reset') delay.reset();
    else if (message === 'report') process.send?.({ maxDelayMs: delay.max / 1e6 });
  });
  announce({
    survey: `${app.url}/survey`,
    report: `${app.url}/api/events/20260101/20260131/day/ALL`,
    authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
  } satisfies SurveyServer);
}

void main();
