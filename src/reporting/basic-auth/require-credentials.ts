import type { NextFunction, Request, RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import { errors } from '../../errors/catalogue';
import { renderError } from '../../http/representation';
import type { Account } from '../../domain/account';
import type { TemporaryCredentials } from '../auth/temporary-credentials';

export const REALM = 'IVR reporting API';

const unauthorizedBody = (req: Request): string => renderError(req, req.res as Response, errors.unauthorized(REALM));

interface AuthenticatedLocals {
  account?: Account;
}

/** The account that the request's temporary credentials belong to; set by `requireCredentials`. */
export function authenticatedAccount(res: Response): Account {
  const account = (res.locals as AuthenticatedLocals).account;
  if (account === undefined) throw new Error('authenticatedAccount used on a route without requireCredentials');
  return account;
}

/**
 * HTTP Basic with the temporary credentials of POST /api/auth, through one express-basic-auth middleware
 * made at start. Its authorizer is not given the request, but it is called synchronously from within the
 * middleware, so the request's response and `next` are handed over in two variables for the length of
 * that call: the authorizer puts the account it found on the response for the handlers. express-basic-auth
 * asserts that the authorizer never reports an error, so a store failure goes to `next` instead.
 */
export function requireCredentials(credentials: TemporaryCredentials): RequestHandler {
  let authorisedRes: Response | undefined;
  let authorisedNext: NextFunction | undefined;
  const checkBasicAuth = basicAuth({
    authorizer: (login: string, password: string, done: (error: null, approved: boolean) => void) => {
      const res = authorisedRes as Response;
      const next = authorisedNext as NextFunction;
      credentials.verify(login, password).then((account) => {
        if (account !== undefined) (res.locals as AuthenticatedLocals).account = account;
        done(null, account !== undefined);
      }, next);
    },
    authorizeAsync: true,
    unauthorizedResponse: unauthorizedBody,
  });
  return (req, res, next) => {
    authorisedRes = res;
    authorisedNext = next;
    try {
      checkBasicAuth(req, res, next);
    } finally {
      authorisedRes = undefined;
      authorisedNext = undefined;
    }
  };
}
