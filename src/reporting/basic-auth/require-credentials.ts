import type { Request, RequestHandler, Response } from 'express';
import basicAuth from 'express-basic-auth';
import { errors } from '../../errors/catalogue';
import { renderError } from '../../http/representation';
import type { Account } from '../../domain/account';
import type { TemporaryCredentials } from '../auth/temporary-credentials';

export const REALM = 'IVR reporting API';

const unauthorizedBody = (req: Request): string => renderError(req, req.res as Response, errors.unauthorized(REALM));

/** The account that the request's temporary credentials belong to; set by `requireCredentials`. */
export function authenticatedAccount(res: Response): Account {
  const account = (res.locals as { account?: Account }).account;
  if (account === undefined) throw new Error('authenticatedAccount used on a route without requireCredentials');
  return account;
}

/**
 * HTTP Basic with the temporary credentials of POST /api/auth. express-basic-auth asserts that its
 * asynchronous authorizer never reports an error, so a store failure goes to `next` instead, and the
 * authorizer is made per request to hand the account it found to the handlers.
 */
export function requireCredentials(credentials: TemporaryCredentials): RequestHandler {
  return (req, res, next) => {
    const authorizer = (login: string, password: string, done: (error: null, approved: boolean) => void) => {
      credentials.verify(login, password).then((account) => {
        if (account !== undefined) (res.locals as { account?: Account }).account = account;
        done(null, account !== undefined);
      }, next);
    };
    basicAuth({ authorizer, authorizeAsync: true, unauthorizedResponse: unauthorizedBody })(req, res, next);
  };
}
