import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppError } from '../errors/catalogue';

const BEARER = /^Bearer +(.+)$/i;

// Digests have one length whatever was sent, so timingSafeEqual compares them without revealing the token's length.
function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * Lets through only requests with `Authorization: Bearer <token>`, compared in constant time; the others
 * get `refusal()` (a 401 with its own Bearer challenge) through the error handler.
 */
export function requireBearerToken(token: string, refusal: () => AppError): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const presented = BEARER.exec(req.get('authorization') ?? '')?.[1]?.trim();
    const valid = presented !== undefined && timingSafeEqual(digest(presented), expected);
    next(valid ? undefined : refusal());
  };
}
