import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { errors } from '../errors/catalogue';

export const ADMIN_REALM = 'ivr-reporting admin';

const BEARER = /^Bearer +(.+)$/i;

// Digests have one length whatever was sent, so timingSafeEqual compares them without revealing the token's length.
function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Every admin request needs `Authorization: Bearer <ADMIN_TOKEN>`; 401 with a Bearer challenge otherwise. */
export function requireAdminToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const presented = BEARER.exec(req.get('authorization') ?? '')?.[1]?.trim();
    const valid = presented !== undefined && timingSafeEqual(digest(presented), expected);
    next(valid ? undefined : errors.adminUnauthorized(ADMIN_REALM));
  };
}
