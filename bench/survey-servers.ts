/**
 * The survey web service under measurement, in a process of its own (pinned to a core by the parent for
 * the svcEval figure, its standard output, the access log at LOG_LEVEL=info, into a file): the real app.
 * Announces its URLs; answers the parent's 'reset' and 'report' messages with the longest event-loop
 * delay the process had since the last reset. Its baseline is bench/soap-only-server.ts. Beside it, over the
 * same store, the app with each piece of a call's fixed cost taken out in turn (`SURVEY_PIECES`), then all of them.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type * as PasswordHash from '../src/accounts/password-hash';
import type * as AccountModule from '../src/accounts/account';
import type * as MemoryStoreModule from '../src/storage/memory/memory-store';
import { compiled, serverModules } from './compiled';
import { appWithout, type Piece } from './pieces';
import { announce } from './processes';
import { settings } from './settings';

/** The pieces of a svcEval call's fixed cost taken out in turn (bench/pieces.ts), then all of them. */
export const SURVEY_PIECES = ['access log lines', 'request metrics', 'survey rate limit'] as const satisfies readonly Piece[];
export const ALL_SURVEY_PIECES = 'all three';

export interface SurveyServer {
  readonly survey: string;
  /** The survey service of the app with a piece taken out, or all of them. */
  readonly without: Readonly<Record<(typeof SURVEY_PIECES)[number] | typeof ALL_SURVEY_PIECES, string>>;
  readonly report: string;
  readonly authorization: string;
}

async function main(): Promise<void> {
  const { hashPassword } = await compiled<typeof PasswordHash>('accounts/password-hash');
  const { accountId } = await compiled<typeof AccountModule>('accounts/account');
  const { createMemoryStore } = await compiled<typeof MemoryStoreModule>('storage/memory/memory-store');
  const modules = await serverModules();
  const { composeApp, loadConfig, listen, listenOptions } = modules;
  const variables = { SURVEY_RATE_LIMIT: '1000000000', DATA_RATE_LIMIT: '1000000000', AUTH_RATE_LIMIT: '1000', LOG_LEVEL: settings.serverLogLevel };
  const config = loadConfig(variables);
  const store = createMemoryStore();
  const id = accountId('dev', 'bench');
  await store.accounts.save({ id, tool: 'dev', login: 'bench', passwordHash: await hashPassword('bench'), active: true, timeZone: 'UTC', credentialGeneration: 0 });
  await store.phones.assign('18005550100', id);
  const app = await listen(composeApp(config, { store }), '127.0.0.1', 0, listenOptions(config.server));
  const surveyWithout = async (pieces: readonly Piece[]) =>
    `${(await listen(appWithout({ modules, variables, store }, pieces), '127.0.0.1', 0, listenOptions(config.server))).url}/survey`;
  const without = {} as Record<(typeof SURVEY_PIECES)[number] | typeof ALL_SURVEY_PIECES, string>;
  for (const piece of SURVEY_PIECES) without[piece] = await surveyWithout([piece]);
  without[ALL_SURVEY_PIECES] = await surveyWithout(SURVEY_PIECES);
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
    without,
    report: `${app.url}/api/events/20260101/20260131/day/ALL`,
    authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
  } satisfies SurveyServer);
}

// Its measuring module imports its names: served only when run as the child process, not in the orchestrator.
if (require.main === module) void main();
