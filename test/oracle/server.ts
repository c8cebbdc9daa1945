import type { CallRecordInput } from '../../src/domain/call-record';
import type { RunningServer } from '../../src/listen';
import { ADMIN_TOKEN, BEARER } from '../support/admin';
import { serve } from '../support/http';
import { buildTestApp, type TestApp } from '../support/test-app';
import { addCalls } from '../support/reporting';
import type { Answer } from './compare';
import type { AccountPlan } from './generate';

/*
 * The server under test, driven as its operators and clients drive it: accounts and numbers through the
 * admin API, calls through the admin API (NDJSON) and straight into the store, queries with the
 * temporary credentials of POST /api/auth. Rate limits are lifted: the oracle asks many questions.
 */

export interface ImportAnswer {
  readonly received: number;
  readonly inserted: number;
  readonly duplicates: number;
  readonly rejected: readonly { line: number; error: string }[];
}

export class OracleServer {
  private readonly credentials = new Map<string, string>();

  private constructor(
    readonly testApp: TestApp,
    private readonly running: RunningServer,
  ) {}

  static async start(): Promise<OracleServer> {
    const testApp = buildTestApp({ ADMIN_TOKEN, AUTH_RATE_LIMIT: '1000000', DATA_RATE_LIMIT: '1000000', ADMIN_RATE_LIMIT: '1000000' });
    return new OracleServer(testApp, await serve(testApp.app));
  }

  close(): Promise<void> {
    return this.running.close();
  }

  private async admin(method: string, path: string, body?: string, contentType = 'application/json'): Promise<Answer> {
    const response = await fetch(`${this.running.url}${path}`, {
      method,
      headers: { authorization: BEARER, ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
  }

  private async expectAdmin(method: string, path: string, statuses: readonly number[], body?: unknown): Promise<void> {
    const answer = await this.admin(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (!statuses.includes(answer.status)) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  }

  private accountPath(account: Pick<AccountPlan, 'tool' | 'login'>): string {
    return `/admin/accounts/${account.tool}/${encodeURIComponent(account.login)}`;
  }

  /** Creates the account and its numbers through the admin API, then signs in as a client does. */
  async addAccount(account: AccountPlan): Promise<void> {
    await this.expectAdmin('PUT', this.accountPath(account), [201], { password: account.password, timezone: account.zone });
    for (const phone of account.phones) await this.expectAdmin('PUT', `${this.accountPath(account)}/phones/${phone}`, [201]);
    const response = await fetch(`${this.running.url}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tool: account.tool, login: account.login, password: account.password }).toString(),
    });
    if (response.status !== 200) throw new Error(`authentication of ${account.login} failed: ${response.status} ${await response.text()}`);
    const pair = (await response.json()) as { login: string; password: string };
    this.credentials.set(account.login, `Basic ${Buffer.from(`${pair.login}:${pair.password}`).toString('base64')}`);
  }

  async setZone(account: AccountPlan, zone: string): Promise<void> {
    await this.expectAdmin('PUT', this.accountPath(account), [200], { timezone: zone });
  }

  async movePhone(phone: string, from: AccountPlan, to: AccountPlan): Promise<void> {
    await this.expectAdmin('DELETE', `${this.accountPath(from)}/phones/${phone}`, [200]);
    await this.expectAdmin('PUT', `${this.accountPath(to)}/phones/${phone}`, [201]);
  }

  /** POST /admin/calls, as NDJSON (one line per record) or as a JSON array. */
  async postCalls(records: readonly CallRecordInput[], as: 'ndjson' | 'json' = 'ndjson'): Promise<ImportAnswer> {
    const answer =
      as === 'ndjson'
        ? await this.admin('POST', '/admin/calls', records.map((record) => JSON.stringify(record)).join('\n'), 'application/x-ndjson')
        : await this.admin('POST', '/admin/calls', JSON.stringify(records), 'application/json');
    if (answer.status !== 200) throw new Error(`POST /admin/calls: ${answer.status} ${answer.text.slice(0, 500)}`);
    return JSON.parse(answer.text) as ImportAnswer;
  }

  storeCalls(records: readonly CallRecordInput[]): Promise<void> {
    return addCalls(this.testApp.store, records);
  }

  /** A data request as the account's client makes it. */
  async get(login: string, path: string, accept?: string): Promise<Answer> {
    const authorization = this.credentials.get(login);
    if (authorization === undefined) throw new Error(`no credentials for ${login}`);
    const response = await fetch(`${this.running.url}${path}`, { headers: { authorization, ...(accept === undefined ? {} : { accept }) } });
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
  }
}

/** Runs `work` over the items with at most `width` in flight, in order of start. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}
