import express, { type RequestHandler } from 'express';
import { z } from 'zod';
import { clientGoneSignal } from '../../http/client-gone';
import { fields, send } from '../../http/representation';
import type { Authenticate } from './authenticate';
import { parseAuthenticationRequest } from './params';
import { ISSUED_SHAPE } from './temporary-credentials';
import type { ScenarioAnswers } from '../../sandbox/sandbox';

const BODY_LIMIT = '16kb';

const AUTH_TARGETS = ['auth'] as const;

const issuedSecret = (description: string) => z.string().regex(ISSUED_SHAPE).meta({ description });

/** The answer of POST /api/auth: `{"login", "password"}`, or `<result><login/><password/></result>`. */
export const issuedCredentialsSchema = z
  .strictObject({
    login: issuedSecret('The login of HTTP Basic on the raw-data resources: 128 random bits as 32 lowercase hex digits'),
    password: issuedSecret('The password of HTTP Basic on the raw-data resources: 128 random bits as 32 lowercase hex digits'),
  })
  .meta({ id: 'TemporaryCredentials', xml: { name: 'result' } });

/** POST /api/auth: form, JSON or query string in; temporary credentials out. */
export function authenticateRoute(authenticate: Authenticate, scenarios: ScenarioAnswers): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: BODY_LIMIT }),
    express.json({ limit: BODY_LIMIT }),
    async (req, res) => {
      const request = parseAuthenticationRequest(req.query, req.body);
      await scenarios(req, res, { targets: AUTH_TARGETS, account: { tool: request.tool, login: request.login } });
      const issued = await authenticate(request, clientGoneSignal(res));
      const body: z.input<typeof issuedCredentialsSchema> = { login: issued.login, password: issued.password };
      send(req, res, 200, fields(body));
    },
  ];
}
