import { z } from 'zod';
import type { PasswordHasher } from '../../accounts/password-hasher';
import { compareText } from '../../domain/text-order';
import { errors } from '../../errors/catalogue';
import { accountId, type Account } from '../../accounts/account';
import { toolSchema, type Tool } from '../../domain/tool';
import type { AccountChange, Store } from '../../storage/store';
import { ISSUED_SHAPE, type Revoked, type TemporaryCredentials } from '../../reporting/auth/temporary-credentials';

export interface AccountKey {
  readonly tool: Tool;
  readonly login: string;
}

/** What a PUT may change; a field left out keeps its value (or its default on creation). */
export interface AccountChanges {
  readonly password?: string;
  readonly active?: boolean;
  readonly timeZone?: string;
}

/** An account as the admin API shows it: never a hash, never a credential. */
export const accountViewSchema = z
  .strictObject({
    tool: toolSchema,
    login: z.string(),
    active: z.boolean(),
    timezone: z.string().meta({ description: "IANA time zone in which the account's dates and periods are read" }),
    phones: z.array(z.string().regex(/^[0-9]{1,15}$/)).meta({ description: "The account's numbers, digits only" }),
  })
  .meta({ id: 'Account' });

export type AccountView = Readonly<z.output<typeof accountViewSchema>>;

/** What POST .../credentials/expire ended: each credential's login, never its password. */
export const expiredCredentialsSchema = z
  .strictObject({
    expired: z.int().nonnegative().meta({ description: 'How many temporary credentials worked until now; 0 when none did' }),
    credentials: z
      .array(
        z.strictObject({
          login: z.string().regex(ISSUED_SHAPE).meta({ description: 'The login POST /api/auth issued (the user name of HTTP Basic)' }),
          expires_at: z.iso.datetime().meta({ description: 'When it would have expired unused, CREDENTIAL_TTL_SECONDS after its last use' }),
        }),
      )
      .meta({ description: 'Those credentials, soonest to expire first' }),
  })
  .meta({ id: 'ExpiredCredentials' });

export type ExpiredCredentialsView = z.output<typeof expiredCredentialsSchema>;

export interface Saved<T> {
  /** False when the request changed nothing that existed (an update, or a number already on the account). */
  readonly created: boolean;
  readonly account: T;
}

export interface AccountAdmin {
  put(key: AccountKey, changes: AccountChanges): Promise<Saved<AccountView>>;
  get(key: AccountKey): Promise<AccountView>;
  list(): Promise<AccountView[]>;
  assignPhone(key: AccountKey, phone: string): Promise<Saved<AccountView>>;
  releasePhone(key: AccountKey, phone: string): Promise<AccountView>;
  /** Ends every temporary credential issued so far, and changes nothing else. */
  revokeCredentials(key: AccountKey): Promise<AccountView>;
  /** The same step as revokeCredentials, answered with the credentials that worked until then. */
  expireCredentials(key: AccountKey): Promise<ExpiredCredentialsView>;
  /** Deletes the account with its numbers, their calls and its credentials (AccountRepository.remove). */
  remove(key: AccountKey): Promise<void>;
}

const byToolThenLogin = (a: Account, b: Account): number =>
  compareText(a.tool, b.tool) || compareText(a.login, b.login);

/**
 * Account administration over the store. Deactivating needs nothing more than saving, and deleting
 * nothing more than the store's step: temporary credentials and logins re-read their account on every
 * use. A new password also revokes the temporary credentials issued under the old one, in the same store
 * step. A time-zone change re-buckets the account's daily
 * rollups inside the store (see AccountRepository.update).
 */
export function accountAdmin(
  store: Store,
  defaultTimeZone: string,
  passwords: PasswordHasher,
  credentials: Pick<TemporaryCredentials, 'revokeAll'>,
): AccountAdmin {
  async function view(account: Account): Promise<AccountView> {
    return {
      tool: account.tool,
      login: account.login,
      active: account.active,
      timezone: account.timeZone,
      phones: await store.phones.ownedBy(account.id),
    };
  }

  async function existing({ tool, login }: AccountKey): Promise<Account> {
    const account = await store.accounts.find(accountId(tool, login));
    if (account === undefined) throw errors.accountNotFound(tool, login);
    return account;
  }

  async function revokeAll({ tool, login }: AccountKey): Promise<Revoked> {
    const revoked = await credentials.revokeAll(accountId(tool, login));
    if (revoked === undefined) throw errors.accountNotFound(tool, login);
    return revoked;
  }

  return {
    /**
     * An update changes only the fields given, in one store step, so two PUTs at once (say, one
     * deactivating, one setting a password) both take effect; of two creations, one is 201, the other
     * an update.
     */
    async put({ tool, login }, changes) {
      const id = accountId(tool, login);
      const change: AccountChange = {
        passwordHash: changes.password === undefined ? undefined : await passwords.hash(changes.password),
        active: changes.active,
        timeZone: changes.timeZone,
        revokeCredentials: changes.password !== undefined,
      };
      const updated = await store.accounts.update(id, change);
      if (updated !== undefined) return { created: false, account: await view(updated) };
      if (change.passwordHash === undefined) throw errors.missingField('password');
      const account: Account = {
        id,
        tool,
        login,
        passwordHash: change.passwordHash,
        active: change.active ?? true,
        timeZone: change.timeZone ?? defaultTimeZone,
        credentialGeneration: 0,
      };
      if (await store.accounts.create(account)) return { created: true, account: await view(account) };
      const createdMeanwhile = await store.accounts.update(id, change);
      if (createdMeanwhile === undefined) throw new Error(`account ${id} was neither created nor found`);
      return { created: false, account: await view(createdMeanwhile) };
    },

    async get(key) {
      return view(await existing(key));
    },

    async list() {
      const accounts = (await store.accounts.list()).sort(byToolThenLogin);
      return Promise.all(accounts.map(view));
    },

    async assignPhone(key, phone) {
      const account = await existing(key);
      const result = await store.phones.assign(phone, account.id);
      if (result === 'no-account') throw errors.accountNotFound(key.tool, key.login);
      if (result === 'owned-by-another') throw errors.phoneOwnedByAnother(phone);
      return { created: result === 'assigned', account: await view(account) };
    },

    async revokeCredentials(key) {
      return view((await revokeAll(key)).account);
    },

    async expireCredentials(key) {
      const { ended } = await revokeAll(key);
      return {
        expired: ended.length,
        credentials: ended.map(({ login, expiresAt }) => ({ login, expires_at: new Date(expiresAt).toISOString() })),
      };
    },

    async remove({ tool, login }) {
      if (!(await store.accounts.remove(accountId(tool, login)))) throw errors.accountNotFound(tool, login);
    },

    async releasePhone(key, phone) {
      const account = await existing(key);
      if (!(await store.phones.release(phone, account.id))) throw errors.phoneNotOnAccount(phone, key.tool, key.login);
      return view(account);
    },
  };
}
