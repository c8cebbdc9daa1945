import { DateTime } from 'luxon';
import { hashPassword, verifyPassword } from '../../accounts/password-hash';
import { accountId } from '../../accounts/account';
import { type Tool } from '../../domain/tool';
import type { Store } from '../../storage/store';
import type { Clock } from '../../time/clock';
import { addCallsInBatches } from '../seed-file';
import { generateDemoCallRecords } from './calls';

export interface DemoAccount {
  tool: Tool;
  login: string;
  password: string;
  phones: string[];
  timeZone: string;
  /** The 7 local days ending today, as YYYYMMDD, ready for an /api/events URL. */
  lastWeek: { start: string; end: string };
}

/** The demo account's identity: the API reference's examples use it too, so that they work against `npm start`. */
export const DEMO_ACCOUNT = {
  tool: 'dev',
  login: 'demo',
  password: 'demo-password',
  timeZone: 'America/New_York',
  phones: ['18005550100', '18005550101', '18005550102'],
} as const;

export const DEMO_ACCOUNT_ID = accountId(DEMO_ACCOUNT.tool, DEMO_ACCOUNT.login);

/** About 17,000 calls: a history worth charting that still loads in well under a second. */
const DEMO_HISTORY = { days: 120, callsPerDay: 60, seed: 20_180_207 } as const;

function lastWeekOf(now: number, timeZone: string): DemoAccount['lastWeek'] {
  const today = DateTime.fromMillis(now, { zone: timeZone });
  return { start: today.minus({ days: 6 }).toFormat('yyyyMMdd'), end: today.toFormat('yyyyMMdd') };
}

/** Creates the demo account with its numbers and about four months of calls up to now. */
export async function loadDemoData(store: Store, clock: Clock): Promise<DemoAccount> {
  const now = clock.now();
  const { tool, login, password, timeZone } = DEMO_ACCOUNT;
  const phones = [...DEMO_ACCOUNT.phones];
  const id = accountId(tool, login);
  await store.accounts.save({ id, tool, login, passwordHash: await hashPassword(password), active: true, timeZone, credentialGeneration: 0 });
  for (const phone of phones) await store.phones.assign(phone, id);
  await addCallsInBatches(store, generateDemoCallRecords({ ...DEMO_HISTORY, phones, timeZone, now }));
  return { tool, login, password, phones, timeZone, lastWeek: lastWeekOf(now, timeZone) };
}

/**
 * Whether the store holds the demo account with its published password, as a start without DEMO_DATA
 * finds a database that an earlier start with the demo data created: anyone can log in with it.
 */
export async function publicDemoAccountStored(store: Store): Promise<boolean> {
  const account = await store.accounts.find(DEMO_ACCOUNT_ID);
  return account !== undefined && (await verifyPassword(DEMO_ACCOUNT.password, account.passwordHash));
}

/** Said at start when the demo data are off and publicDemoAccountStored: how to be rid of it. */
export const PUBLIC_DEMO_ACCOUNT_WARNING =
  `the demo account ${DEMO_ACCOUNT.tool}/${DEMO_ACCOUNT.login} is stored with its published password ${DEMO_ACCOUNT.password}, though the demo data are off: ` +
  `delete it with "ivr-reporting accounts delete ${DEMO_ACCOUNT.tool} ${DEMO_ACCOUNT.login}" (DELETE /admin/accounts/${DEMO_ACCOUNT.tool}/${DEMO_ACCOUNT.login})`;
