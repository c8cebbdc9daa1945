import type { Express } from 'express';
import { composeApp } from '../../src/composition-root';
import { loadConfig, type Config } from '../../src/configuration';
import { createLogger } from '../../src/logger';
import { accountId, type Account } from '../../src/accounts/account';
import { type Tool } from '../../src/domain/tool';
import type { Store } from '../../src/storage/store';
import { FakeClock } from './fake-clock';
import { createTestStore } from './test-store';
import { quickPasswords, storedHash, type Hashing } from './test-passwords';

export interface TestApp {
  readonly app: Express;
  readonly store: Store;
  readonly clock: FakeClock;
  readonly config: Config;
}

export interface TestAppOptions {
  /** `quick` unless the test's subject is the hashing of passwords (test-passwords.ts). */
  readonly hashing?: Hashing;
}

/**
 * A fresh app on a fresh store (in memory, or PostgreSQL under the "on PostgreSQL" jest project), with a
 * fake clock and silent logs.
 */
export function buildTestApp(env: NodeJS.ProcessEnv = {}, clock = new FakeClock(), { hashing = 'quick' }: TestAppOptions = {}): TestApp {
  const config = loadConfig(env);
  const store = createTestStore();
  const passwords = hashing === 'quick' ? quickPasswords : undefined;
  const app = composeApp(config, { store, clock, logger: createLogger('silent'), passwords });
  return { app, store, clock, config };
}

/** Limits no generated test reaches: the fuzz suites send thousands of requests from one address and account. */
export const LIMITS_OUT_OF_REACH: NodeJS.ProcessEnv = {
  AUTH_RATE_LIMIT: '1000000',
  DATA_RATE_LIMIT: '1000000',
  SURVEY_RATE_LIMIT: '1000000',
  ADMIN_RATE_LIMIT: '1000000',
};

export interface AccountFixture {
  readonly tool?: Tool;
  readonly login?: string;
  readonly password?: string;
  readonly active?: boolean;
  readonly timeZone?: string;
  readonly phones?: readonly string[];
  /** `quick` unless the test's subject is the hashing of passwords. */
  readonly hashing?: Hashing;
}

export async function addAccount(store: Store, fixture: AccountFixture = {}): Promise<Account> {
  const tool = fixture.tool ?? 'dev';
  const login = fixture.login ?? 'alice';
  const account: Account = {
    id: accountId(tool, login),
    tool,
    login,
    passwordHash: await storedHash(fixture.password ?? 'secret-password', fixture.hashing ?? 'quick'),
    active: fixture.active ?? true,
    timeZone: fixture.timeZone ?? 'UTC',
    credentialGeneration: 0,
  };
  await store.accounts.save(account);
  for (const phone of fixture.phones ?? []) await store.phones.assign(phone, account.id);
  return account;
}
