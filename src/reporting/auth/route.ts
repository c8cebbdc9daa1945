import express, { type RequestHandler } from 'express';
import { fields, send } from '../../http/representation';
import type { Authenticate } from './authenticate';
import { parseAuthenticationRequest } from './params';

const BODY_LIMIT = '16kb';

/** POST /api/auth: form, JSON or query string in; temporary credentials out. */
export function authenticateRoute(authenticate: Authenticate): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: BODY_LIMIT }),
    express.json({ limit: BODY_LIMIT }),
    async (req, res) => {
      const request = parseAuthenticationRequest(req.query, req.body);
      const issued = await authenticate(request);
      send(req, res, 200, fields({ login: issued.login, password: issued.password }));
    },
  ];
}
