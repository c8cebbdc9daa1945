import { parse as parseCookies } from 'cookie';
import type { CookieOptions, Request } from 'express';
import { randomBytes } from 'node:crypto';

/** The cookie that ties the calls of one survey together. */
export const SESSION_COOKIE = 'survey_session';

const SESSION_ID = /^[0-9a-f]{32}$/;

/** A fresh session id: 128 random bits, as lowercase hex. */
export function newSessionId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The session id the caller sent back, read with the cookie parser Express itself uses, if it is
 * well-formed; anything else, or none, starts a new survey.
 */
export function presentedSessionId(req: Request): string | undefined {
  const value = parseCookies(req.get('cookie') ?? '')[SESSION_COOKIE];
  return value !== undefined && SESSION_ID.test(value) ? value : undefined;
}

/** No Expires: expiry is the server's idle timeout, so the cookie lives as long as the caller keeps it. */
export function sessionCookieOptions(req: Request, path: string): CookieOptions {
  return { path, httpOnly: true, sameSite: 'lax', secure: req.secure };
}
