import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { hashPassword } from '../accounts/password-hash';
import { callRecordSchema, type CallRecord } from '../domain/call-record';
import { phoneNumberSchema } from '../domain/phone-number';
import { timeZoneSchema } from '../domain/time-zone';
import { storableIdentifier } from '../domain/storable-text';
import { accountId, type Account } from '../accounts/account';
import { toolSchema } from '../domain/tool';
import type { Store } from '../storage/store';

/** Large enough to keep round trips to a networked store few, small enough to bound one statement. */
const CALL_BATCH_SIZE = 10_000;

export class SeedFileError extends Error {
  override readonly name = 'SeedFileError';
}

export interface SeedFileSummary {
  readonly accounts: number;
  readonly phones: number;
  readonly calls: number;
  readonly duplicates: number;
}

function seedFileSchema(defaultTimeZone: string) {
  const account = z.strictObject({
    tool: toolSchema,
    login: storableIdentifier(200),
    password: z.string().min(1, 'must not be empty'),
    active: z.boolean().default(true),
    timezone: timeZoneSchema.default(defaultTimeZone),
    phones: z.array(phoneNumberSchema).default([]),
  });
  return z.strictObject({
    accounts: z.array(account).default([]),
    calls: z.array(callRecordSchema).default([]),
  });
}

type SeedFile = z.output<ReturnType<typeof seedFileSchema>>;
type SeedAccount = SeedFile['accounts'][number];

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function accountName(index: number, tool: unknown, login: unknown): string {
  const label = isName(tool) && isName(login) ? ` (${tool}/${login})` : '';
  return `accounts[${index}]${label}`;
}

function callName(index: number, callId: unknown): string {
  const label = isName(callId) ? ` (call_id ${JSON.stringify(callId)})` : '';
  return `calls[${index}]${label}`;
}

function property(value: unknown, key: PropertyKey): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
}

/** Names the record an issue is about from the raw JSON, since a record that failed has no parsed form. */
function recordName(section: string, index: number, raw: unknown): string {
  const record = property(property(raw, section), index);
  return section === 'accounts'
    ? accountName(index, property(record, 'tool'), property(record, 'login'))
    : callName(index, property(record, 'call_id'));
}

function pathSuffix(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const [section, index, ...rest] = issue.path;
  const location =
    typeof section === 'string' && typeof index === 'number'
      ? recordName(section, index, raw) + pathSuffix(rest)
      : pathSuffix(issue.path).replace(/^\./, '');
  return location === '' ? issue.message : `${location}: ${issue.message}`;
}

function describeIssues(issues: readonly z.core.$ZodIssue[], raw: unknown): string {
  const [first, ...others] = issues;
  const more = others.length === 0 ? '' : ` (and ${others.length} more problem${others.length === 1 ? '' : 's'})`;
  return first === undefined ? 'invalid' : describeIssue(first, raw) + more;
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SeedFileError(`SEED_FILE ${path}: cannot be read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeedFileError(`SEED_FILE ${path}: not valid JSON: ${(error as Error).message}`);
  }
}

function duplicateAccount(accounts: readonly SeedAccount[]): string | undefined {
  const firstIndexById = new Map<string, number>();
  for (const [index, { tool, login }] of accounts.entries()) {
    const id = accountId(tool, login);
    const earlier = firstIndexById.get(id);
    if (earlier !== undefined) return `${accountName(index, tool, login)}: same tool and login as accounts[${earlier}]`;
    firstIndexById.set(id, index);
  }
  return undefined;
}

function firstAccountOfEachPhone(accounts: readonly SeedAccount[]): Map<string, number> {
  const owners = new Map<string, number>();
  accounts.forEach((account, index) => {
    for (const phone of account.phones) if (!owners.has(phone)) owners.set(phone, index);
  });
  return owners;
}

function sharedPhone(accounts: readonly SeedAccount[], owners: ReadonlyMap<string, number>): string | undefined {
  for (const [index, { tool, login, phones }] of accounts.entries()) {
    for (const [position, phone] of phones.entries()) {
      const owner = owners.get(phone) ?? index;
      if (owner === index) continue;
      const ownerAccount = accounts[owner];
      return (
        `${accountName(index, tool, login)}.phones[${position}]: ${phone} is already on ` +
        accountName(owner, ownerAccount?.tool, ownerAccount?.login)
      );
    }
  }
  return undefined;
}

function callOnUnknownPhone(calls: readonly CallRecord[], owners: ReadonlyMap<string, number>): string | undefined {
  const index = calls.findIndex((call) => !owners.has(call.phone));
  const call = calls[index];
  if (call === undefined) return undefined;
  return `${callName(index, call.callId)}.phone: ${call.phone} is on no account in the file`;
}

function inconsistency(seed: SeedFile): string | undefined {
  const owners = firstAccountOfEachPhone(seed.accounts);
  return (
    duplicateAccount(seed.accounts) ?? sharedPhone(seed.accounts, owners) ?? callOnUnknownPhone(seed.calls, owners)
  );
}

async function parseSeedFile(path: string, defaultTimeZone: string): Promise<SeedFile> {
  const raw = await readJson(path);
  const result = seedFileSchema(defaultTimeZone).safeParse(raw);
  if (!result.success) throw new SeedFileError(`SEED_FILE ${path}: ${describeIssues(result.error.issues, raw)}`);
  const problem = inconsistency(result.data);
  if (problem !== undefined) throw new SeedFileError(`SEED_FILE ${path}: ${problem}`);
  return result.data;
}

async function toAccount(seed: SeedAccount): Promise<Account> {
  return {
    id: accountId(seed.tool, seed.login),
    tool: seed.tool,
    login: seed.login,
    passwordHash: await hashPassword(seed.password),
    active: seed.active,
    timeZone: seed.timezone,
    credentialGeneration: 0,
  };
}

/** Saves the accounts and assigns their phones; returns how many phones were assigned. */
async function saveAccounts(path: string, store: Store, seeds: readonly SeedAccount[]): Promise<number> {
  const prepared = await Promise.all(seeds.map(async (seed) => ({ seed, account: await toAccount(seed) })));
  let assigned = 0;
  for (const [index, { seed, account }] of prepared.entries()) {
    await store.accounts.save(account);
    for (const [position, phone] of seed.phones.entries()) {
      const result = await store.phones.assign(phone, account.id);
      if (result === 'owned-by-another') {
        const where = `${accountName(index, seed.tool, seed.login)}.phones[${position}]`;
        throw new SeedFileError(`SEED_FILE ${path}: ${where}: ${phone} is owned by another account in the store`);
      }
      if (result === 'assigned') assigned += 1;
    }
  }
  return assigned;
}

/** Adds calls to the store in batches; a call whose id the store already holds is counted as a duplicate. */
export async function addCallsInBatches(
  store: Store,
  calls: Iterable<CallRecord>,
): Promise<{ inserted: number; duplicates: number }> {
  let inserted = 0;
  let duplicates = 0;
  let batch: CallRecord[] = [];
  const flush = async () => {
    const result = await store.calls.add(batch);
    inserted += result.inserted;
    duplicates += result.duplicates;
    batch = [];
  };
  for (const call of calls) {
    batch.push(call);
    if (batch.length === CALL_BATCH_SIZE) await flush();
  }
  if (batch.length > 0) await flush();
  return { inserted, duplicates };
}

/**
 * Loads a seed file into the store. The whole file is checked before anything is written, so a bad file
 * leaves the store as it was; only a phone that the store already gives to another account is found
 * midway. The SeedFileError names the file and the first offending record.
 */
export async function loadSeedFile(path: string, store: Store, defaultTimeZone: string): Promise<SeedFileSummary> {
  const seed = await parseSeedFile(path, defaultTimeZone);
  const phones = await saveAccounts(path, store, seed.accounts);
  const { inserted, duplicates } = await addCallsInBatches(store, seed.calls);
  return { accounts: seed.accounts.length, phones, calls: inserted, duplicates };
}
