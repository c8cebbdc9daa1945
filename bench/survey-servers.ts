/**
 * The survey web services under measurement, in a process of their own so the load generator does not
 * share their event loop: the real app, and a server built only from the soap package with the same
 * WSDL (the baseline). Announces their URLs; answers the parent's 'reset' and 'report'
 * messages with the longest event-loop delay the app's process had since the last reset.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { listen as soapListen } from 'soap';
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as CompositionRoot from '../src/composition-root';
import type * as ConfigModule from '../src/config/config';
import type * as LoggerModule from '../src/logger';
import type * as ListenModule from '../src/listen';
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import type * as AccountModule from '../src/accounts/account';
import type * as WsdlModule from '../src/survey/wsdl';
import { compiled } from './compiled';
import { announce } from './processes';

async function soapOnlyServer(renderWsdl: (address: string, operation: 'svcEval') => string): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const svcEval = (args: { answers?: { item?: unknown } }) => {
    const items = args.answers?.item;
    const answers = (Array.isArray(items) ? (items as unknown[]) : [items]).map((item): unknown =>
      typeof item === 'object' && item !== null ? (item as { $value?: unknown }).$value : item,
    );
    return { svcEvalResponse: answers.includes('yes') ? 'accepted' : 'rejected' };
  };
  soapListen(server, '/survey', { SampleWebservice: { SampleWebservicePort: { svcEval } } }, renderWsdl(`${url}/survey`, 'svcEval'));
  return `${url}/survey`;
}

async function main(): Promise<void> {
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { composeApp } = await compiled<typeof CompositionRoot>('composition-root');
  const { loadConfig } = await compiled<typeof ConfigModule>('config/config');
  const { createLogger } = await compiled<typeof LoggerModule>('logger');
  const { listen, listenOptions } = await compiled<typeof ListenModule>('listen');
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const { renderWsdl } = await compiled<typeof WsdlModule>('survey/wsdl');
  const config = loadConfig({ SURVEY_RATE_LIMIT: '1000000000', DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000' });
  const store = createMemoryStore();
  const id = accountId('dev', 'bench');
  await store.accounts.save({ id, tool: 'dev', login: 'bench', passwordHash: await hashPassword('bench'), active: true, timeZone: 'UTC', credentialGeneration: 0 });
  await store.phones.assign('18005550100', id);
  const app = await listen(composeApp(config, { store, logger: createLogger('silent') }), '127.0.0.1', 0, listenOptions(config.server));
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
    baseline: await soapOnlyServer(renderWsdl),
    report: `${app.url}/api/events/20260101/20260131/day/ALL`,
    authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
  });
}

void main();
