import express, { Router } from 'express';
import { z } from 'zod';
import { methodNotAllowed } from '../../http/error-handler';
import { requireJsonIfAny } from '../../http/json-body';
import { accountViewSchema, type AccountAdmin, type AccountKey } from './account-admin';
import { parseAccountChanges, parseAccountKey, parsePhone } from './params';

const BODY_LIMIT = '16kb';

/** GET /admin/accounts: every account, ordered by tool then login. */
export const accountListSchema = z.strictObject({ accounts: z.array(accountViewSchema) }).meta({ id: 'AccountList' });


const accountPath = ({ tool, login }: AccountKey): string => `/admin/accounts/${tool}/${encodeURIComponent(login)}`;

/**
 * The account routes of the admin API; every answer is the account (or the list) as AccountView, but a
 * deletion's 204 and the credentials an expiry ended.
 */
export function accountRoutes(admin: AccountAdmin): Router {
  const router = Router();

  router
    .route('/accounts')
    .get(async (_req, res) => {
      const body: z.input<typeof accountListSchema> = { accounts: await admin.list() };
      res.status(200).json(body);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/accounts/:tool/:login')
    .get(async (req, res) => {
      res.status(200).json(await admin.get(parseAccountKey(req.params)));
    })
    .put(requireJsonIfAny, express.json({ limit: BODY_LIMIT, strict: false }), async (req, res) => {
      const key = parseAccountKey(req.params);
      const { created, account } = await admin.put(key, parseAccountChanges(req.body));
      if (created) res.location(accountPath(key));
      res.status(created ? 201 : 200).json(account);
    })
    .delete(async (req, res) => {
      await admin.remove(parseAccountKey(req.params));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'PUT', 'DELETE']));

  router
    .route('/accounts/:tool/:login/credentials')
    .delete(async (req, res) => {
      res.status(200).json(await admin.revokeCredentials(parseAccountKey(req.params)));
    })
    .all(methodNotAllowed(['DELETE']));

  // What a sandbox calls expiring them now, the same step: the next data request gets the 401 of 24 hours unused.
  router
    .route('/accounts/:tool/:login/credentials/expire')
    .post(async (req, res) => {
      res.status(200).json(await admin.expireCredentials(parseAccountKey(req.params)));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/accounts/:tool/:login/phones/:phone')
    .put(async (req, res) => {
      const { created, account } = await admin.assignPhone(parseAccountKey(req.params), parsePhone(req.params.phone));
      res.status(created ? 201 : 200).json(account);
    })
    .delete(async (req, res) => {
      res.status(200).json(await admin.releasePhone(parseAccountKey(req.params), parsePhone(req.params.phone)));
    })
    .all(methodNotAllowed(['PUT', 'DELETE']));

  return router;
}
