import type { CookieOptions, Request } from 'express';
import { randomBytes } from 'node:crypto';

/** The cookie that ties the calls of one survey together. */
export const SESSION_COOKIE = 'survey_session';

const SESSION_ID = /^[0-9a-f]{32}$/;

/** A fresh session id: 128 random bits, as lowercase hex. */
export function newSessionId(): string {
  return randomBytes(16).toString('hex');
}

/** The session id the caller sent back, if it sent a well-formed one; anything else starts a new survey. */
export function presentedSessionId(req: Request): string | undefined {
  for (const pair of (req.get('cookie') ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator !== -1 && pair.slice(0, separator).trim() === SESSION_COOKIE) {
      const value = pair.slice(separator + 1).trim();
      if (SESSION_ID.test(value)) return value;
    }
  }
  return undefined;
}

/** No Expires: expiry is the server's idle timeout, so the cookie lives as long as the caller keeps it. */
export function sessionCookieOptions(req: Request, path: string): CookieOptions {
  return { path, httpOnly: true, sameSite: 'lax', secure: req.secure };
}
