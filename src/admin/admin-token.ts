import type { RequestHandler } from 'express';
import { errors } from '../errors/catalogue';
import { requireBearerToken } from '../http/bearer-token';

export const ADMIN_REALM = 'ivr-reporting admin';

/** Every admin request needs `Authorization: Bearer <ADMIN_TOKEN>`; 401 with a Bearer challenge otherwise. */
export function requireAdminToken(token: string): RequestHandler {
  return requireBearerToken(token, () => errors.adminUnauthorized(ADMIN_REALM));
}
