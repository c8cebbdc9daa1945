import parseBasicAuth from 'basic-auth';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import { errors } from '../../errors/catalogue';
import { REALM, type AuthenticatedLocals } from '../../accounts/authenticated-account';
import type { TemporaryCredentials } from '../auth/temporary-credentials';

/**
 * The pairs of the Authorization headers that verified lately, by header: basic-auth's parse (two
 * regular expressions and a base64 decoding) is then made once per pair rather than on every request of a
 * client that polls, a visible part of a kept report's CPU; this, with the password's digest kept beside
 * it (temporary-credentials.ts), is the first cut of a request's fixed cost (docs/performance-costs.md,
 * "The fixed cost of a request on Node 24"). Only headers whose
 * pair verified are kept, and each pair is verified again on every request.
 */
const VERIFIED_HEADERS_KEPT = 4096;

/**
 * HTTP Basic with the temporary credentials of POST /api/auth: the header read by basic-auth (the parser
 * Express's own projects use), the pair checked by the credentials service, the account put on the
 * response for the handlers. A request that cannot be tied to an account (no credentials, or none that
 * work) first goes through `refusedLimit`, the per-address window of such requests, then gets the 401
 * with its challenge (or the window's 429): the account's own window is never touched.
 */
export function requireCredentials(credentials: TemporaryCredentials, refusedLimit: RequestHandler): RequestHandler {
  const refuse: RequestHandler = (req, res, next) => {
    refusedLimit(req, res, (error?: unknown) => next(error ?? errors.unauthorized(REALM)));
  };
  const verifiedHeaders = new LRUCache<string, parseBasicAuth.BasicAuthResult>({ max: VERIFIED_HEADERS_KEPT });
  return (req, res, next) => {
    const header = req.headers.authorization;
    const presented = (header === undefined ? undefined : verifiedHeaders.get(header)) ?? parseBasicAuth(req);
    if (presented === undefined) {
      refuse(req, res, next);
      return;
    }
    credentials.verify(presented.name, presented.pass).then((account) => {
      if (account === undefined) {
        refuse(req, res, next);
        return;
      }
      if (header !== undefined) verifiedHeaders.set(header, presented);
      (res.locals as AuthenticatedLocals).account = account;
      next();
    }, next);
  };
}
