import type { Response } from 'express';
import type { Account } from './account';

/*
 * The account a request was authenticated as, and the realm its HTTP Basic challenge names: set by the
 * reporting API's credential check, read by the data routes, the limit groups and the scenarios' answers.
 */

/** The realm of the reporting API's HTTP Basic challenge. */
export const REALM = 'IVR reporting API';

export interface AuthenticatedLocals {
  account?: Account;
}

/** The account that the request's temporary credentials belong to; set by `requireCredentials`. */
export function authenticatedAccount(res: Response): Account {
  const account = (res.locals as AuthenticatedLocals).account;
  if (account === undefined) throw new Error('authenticatedAccount used on a route without requireCredentials');
  return account;
}
