import { setTimeout as sleep } from 'node:timers/promises';
import type { AccountView } from '../admin/accounts/account-admin';
import type { RetentionView } from '../admin/retention/routes';
import type { ScenarioView } from '../sandbox/scenarios/scenario';
import type { Tool } from '../domain/tool';
import { CliError } from './cli-error';

/** The answer of POST /admin/calls, as sent on the wire. */
export interface ImportAnswer {
  readonly received: number;
  readonly inserted: number;
  readonly duplicates: number;
  readonly rejected: readonly { readonly line: number; readonly error: string }[];
  readonly rejected_more?: number;
}

/** The body of POST /admin/scenarios; the server checks it and names the field it refuses. */
/** The body of POST /admin/scenarios, its fields as typed on the command line: the server checks them and names what it refuses. */
export interface ScenarioFields {
  readonly target: string;
  readonly tool?: Tool;
  readonly login?: string;
  readonly client_address?: string;
  readonly status?: number;
  readonly fault_string?: string;
  /** Whole milliseconds, or a distribution as JSON gave it. */
  readonly delay_ms?: number | Readonly<Record<string, unknown>>;
  readonly retry_after_seconds?: number;
  readonly times?: number;
  readonly probability?: number;
  readonly seed?: number;
  /** The server checks that it is one of its faults, and says which. */
  readonly connection?: string;
  readonly bytes_per_second?: number;
}

export interface AccountFields {
  readonly password?: string;
  readonly active?: boolean;
  readonly timezone?: string;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
  /** Retry-After in seconds, when the server sent one. */
  readonly retryAfter: number | undefined;
}

/** A batch of a few thousand records is stored in well under this; a server silent for longer is stuck. */
const REQUEST_TIMEOUT_MS = 300_000;
const RATE_LIMIT_RETRIES = 3;

function errorOf(body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : JSON.stringify(body);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** The admin API over HTTP, for the command-line tool; every failure becomes a CliError that says what to do. */
export class AdminClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async getAccount(tool: Tool, login: string): Promise<AccountView | undefined> {
    const answer = await this.send('GET', this.accountPath(tool, login), { okStatuses: [200, 404] });
    return answer.status === 404 ? undefined : (answer.body as AccountView);
  }

  async putAccount(tool: Tool, login: string, fields: AccountFields): Promise<AccountView> {
    const body = Buffer.from(JSON.stringify(fields));
    return (await this.send('PUT', this.accountPath(tool, login), { body, type: 'application/json' })).body as AccountView;
  }

  async revokeCredentials(tool: Tool, login: string): Promise<AccountView> {
    return (await this.send('DELETE', `${this.accountPath(tool, login)}/credentials`)).body as AccountView;
  }

  async deleteAccount(tool: Tool, login: string): Promise<void> {
    await this.send('DELETE', this.accountPath(tool, login), { okStatuses: [204] });
  }

  async listAccounts(): Promise<AccountView[]> {
    return ((await this.send('GET', '/admin/accounts')).body as { accounts: AccountView[] }).accounts;
  }

  /** Returns the account and whether the number was newly assigned (false: it already had it). */
  async assignPhone(tool: Tool, login: string, phone: string): Promise<{ assigned: boolean; account: AccountView }> {
    const answer = await this.send('PUT', `${this.accountPath(tool, login)}/phones/${encodeURIComponent(phone)}`);
    return { assigned: answer.status === 201, account: answer.body as AccountView };
  }

  async releasePhone(tool: Tool, login: string, phone: string): Promise<AccountView> {
    return (await this.send('DELETE', `${this.accountPath(tool, login)}/phones/${encodeURIComponent(phone)}`)).body as AccountView;
  }

  async addScenario(fields: ScenarioFields): Promise<ScenarioView> {
    const body = Buffer.from(JSON.stringify(fields));
    return (await this.send('POST', '/admin/scenarios', { body, type: 'application/json', okStatuses: [201] })).body as ScenarioView;
  }

  /** Oldest first. */
  async listScenarios(): Promise<ScenarioView[]> {
    return ((await this.send('GET', '/admin/scenarios')).body as { scenarios: ScenarioView[] }).scenarios;
  }

  async removeScenario(id: string): Promise<void> {
    await this.send('DELETE', `/admin/scenarios/${encodeURIComponent(id)}`, { okStatuses: [204] });
  }

  /** Returns how many there were. */
  async removeAllScenarios(): Promise<number> {
    return ((await this.send('DELETE', '/admin/scenarios')).body as { removed: number }).removed;
  }

  /** GET /admin/retention (`dryRun`: what would go) or POST (drop it now). */
  async retention(dryRun: boolean): Promise<RetentionView> {
    return (await this.send(dryRun ? 'GET' : 'POST', '/admin/retention')).body as RetentionView;
  }

  /** Imports are idempotent (call_id), so a batch refused by the rate limit is simply sent again after Retry-After. */
  async importCalls(ndjson: Buffer, onWait: (seconds: number) => void): Promise<ImportAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await this.send('POST', '/admin/calls', {
        body: ndjson,
        type: 'application/x-ndjson',
        okStatuses: attempt < RATE_LIMIT_RETRIES ? [200, 429] : [200],
      });
      if (answer.status === 200) return answer.body as ImportAnswer;
      const seconds = answer.retryAfter ?? 1;
      onWait(seconds);
      await sleep(seconds * 1000);
    }
  }

  private accountPath(tool: Tool, login: string): string {
    return `/admin/accounts/${tool}/${encodeURIComponent(login)}`;
  }

  private async send(
    method: string,
    path: string,
    { body, type, okStatuses = [200, 201] }: { body?: Buffer; type?: string; okStatuses?: readonly number[] } = {},
  ): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(this.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(type === undefined ? {} : { 'content-type': type }) },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CliError(`cannot reach the server at ${this.baseUrl}: ${causeOf(error)}`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      // 204 No Content has no body to parse.
      parsed = response.status === 204 && text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new CliError(`${method} ${path}: ${response.status} with a body that is not JSON; is ${this.baseUrl} this server?`);
    }
    const retryAfter = response.headers.get('retry-after');
    if (okStatuses.includes(response.status)) {
      return { status: response.status, body: parsed, retryAfter: retryAfter === null ? undefined : Number(retryAfter) };
    }
    throw new CliError(this.explain(method, path, response.status, errorOf(parsed)));
  }

  private explain(method: string, path: string, status: number, error: string): string {
    const said = `${method} ${path}: ${status} ${error}`;
    if (status === 401) {
      return `the server at ${this.baseUrl} refused the admin token (401): pass --token or set ADMIN_TOKEN to the value it was started with`;
    }
    if (status === 404 && error.startsWith('no resource at /admin')) {
      return `${said}; the admin API is off: start the server with ADMIN_TOKEN set`;
    }
    return said;
  }
}
