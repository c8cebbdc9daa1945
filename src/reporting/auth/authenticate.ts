import { randomBytes } from 'node:crypto';
import type { PasswordHasher } from '../../accounts/password-hasher';
import { errors } from '../../errors/catalogue';
import { accountId, type Account } from '../../accounts/account';
import { type Tool } from '../../domain/tool';
import type { Store } from '../../storage/store';
import { REALM } from '../../accounts/authenticated-account';
import type { LoginCache } from './login-cache';
import type { IssuedCredentials, TemporaryCredentials } from './temporary-credentials';

export interface AuthenticationRequest {
  readonly tool: Tool;
  readonly login: string;
  readonly password: string;
}

/** `signal` aborts when the client has gone: the password check, if it has not begun, is then dropped. */
export type Authenticate = (request: AuthenticationRequest, signal?: AbortSignal) => Promise<IssuedCredentials>;

/**
 * Trades a tool account's login and password for temporary credentials. Unknown login, wrong password
 * and inactive account fail alike, and an unknown login still costs one hash comparison, so neither the
 * answer nor its timing tells which it was. With `logins`, the right password of an active account
 * checked by scrypt a moment ago is checked by its digest instead; every refusal still costs scrypt.
 */
export function authenticator(
  store: Store,
  credentials: TemporaryCredentials,
  passwords: PasswordHasher,
  logins: LoginCache | undefined,
): Authenticate {
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= passwords.hash(randomBytes(16).toString('hex')));

  // An account deleted between its reading and the credential's saving gets none, as an unknown login.
  const issueTo = async (account: Account): Promise<IssuedCredentials> => {
    const issued = await credentials.issue(account);
    if (issued === undefined) throw errors.invalidLogin(REALM);
    return issued;
  };

  return async ({ tool, login, password }, signal) => {
    const account = await store.accounts.find(accountId(tool, login));
    // An inactive account is never looked up: were it, its right password would be refused faster than a wrong one.
    if (account?.active === true && logins?.holds(account, password) === true) return issueTo(account);
    const matches = await passwords.verify(password, account?.passwordHash ?? (await decoyHash()), signal);
    if (account === undefined || !matches || !account.active) throw errors.invalidLogin(REALM);
    logins?.remember(account, password);
    return issueTo(account);
  };
}
