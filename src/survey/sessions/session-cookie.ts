import { parse as parseCookies, serialize as serializeCookie, type CookieSerializeOptions } from 'cookie';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';

/** The cookie that ties the calls of one survey together (a services file's services each add their name: survey/services/services-file.ts). */
export const SESSION_COOKIE = 'survey_session';

const SESSION_ID = /^[0-9a-f]{32}$/;

const ID_BYTES = 16;
const IDS_PER_DRAW = 256;
let randomPool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * A fresh session id: 128 random bits, as lowercase hex. The bits come from the CSPRNG 256 ids at a
 * time (as crypto.randomUUID draws its own): a call to it per id cost more than the rest of a session.
 */
export function newSessionId(): string {
  if (poolOffset === randomPool.length) {
    randomPool = randomBytes(ID_BYTES * IDS_PER_DRAW);
    poolOffset = 0;
  }
  poolOffset += ID_BYTES;
  return randomPool.toString('hex', poolOffset - ID_BYTES, poolOffset);
}

/** A service's session cookie: reads the id a caller sent back, and sets the one to send back. */
export interface SessionCookie {
  /**
   * The session id the caller sent back, read with the cookie parser Express itself uses, if it is
   * well-formed; anything else, or none, starts a new survey.
   */
  presented(req: Request): string | undefined;
  /** Sets the session's cookie, the only cookie of the response. */
  set(req: Request, res: Response, sessionId: string): void;
}

/**
 * The cookie `name` on `path`, written by `cookie` (the serializer Express's res.cookie uses) with options
 * built once: res.cookie copied them and merged the header with any earlier one through Express on every
 * call. No Expires: expiry is the server's idle timeout, so the cookie lives as long as the caller keeps it.
 */
export function sessionCookie(name: string, path: string): SessionCookie {
  const overHttp: CookieSerializeOptions = { path, httpOnly: true, sameSite: 'lax' };
  const overHttps: CookieSerializeOptions = { ...overHttp, secure: true };
  return {
    presented: (req) => {
      const value = parseCookies(req.get('cookie') ?? '')[name];
      return value !== undefined && SESSION_ID.test(value) ? value : undefined;
    },
    set: (req, res, sessionId) => {
      res.setHeader('Set-Cookie', serializeCookie(name, sessionId, req.secure ? overHttps : overHttp));
    },
  };
}
