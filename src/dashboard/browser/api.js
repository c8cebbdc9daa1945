/**
 * The reporting API as the page calls it: the same requests as any client, counted in the same limit
 * groups. No cookie or HTTP authentication the browser keeps is sent (`credentials: 'omit'`), so a
 * refused pair never opens the browser's own sign-in dialog.
 *
 * Every answer, success or error, tells what its headers say beside the body: the limit group's state
 * (`rateLimit`), the sandbox's scenarios (`sandbox`, sandbox.js) and the server's clock (`clockOffset`,
 * server-clock.js).
 */
import { sandboxOf } from './sandbox.js';
import { clockOffsetOf } from './server-clock.js';

export class ApiError extends Error {
  constructor(status, message, { rateLimit, sandbox, clockOffset } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.rateLimit = rateLimit;
    /** Undefined when no answer came. */
    this.sandbox = sandbox;
    this.clockOffset = clockOffset;
  }
}

/** X-RateLimit-Limit, -Remaining and -Reset (a Unix second), when the answer went through a limit group. */
function rateLimitOf(headers) {
  const values = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => headers.get(name));
  if (values.some((value) => value === null)) return undefined;
  const [limit, remaining, reset] = values.map(Number);
  return { limit, remaining, reset };
}

/**
 * The answer, and the browser's time when the request left and when the answer's head came back. Never
 * from the browser's HTTP cache (`no-store`): a report's ETag would have it revalidate a kept answer, and
 * the 304's headers are merged into the kept ones, so a header the 304 leaves out (X-Sandbox-Scenarios-Active
 * once no scenario is left) would still be read from the older answer.
 */
/** What a request that got no answer is told as. */
export const UNREACHABLE = 'The server could not be reached: check the connection, then try again.';

/** A refusal's message as the API words it in its error body, else the status. */
export function errorMessageOf(response, body) {
  return typeof body?.error === 'string' ? body.error : `The server answered ${response.status} ${response.statusText}`.trim();
}

async function send(address, init) {
  const sentAt = Date.now();
  try {
    const response = await fetch(address, { ...init, credentials: 'omit', cache: 'no-store' });
    return { response, sentAt, receivedAt: Date.now() };
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
}

/** The JSON body of a success; otherwise the error body's message, as the API words it. */
async function answerOf({ response, sentAt, receivedAt }) {
  const { headers } = response;
  const told = {
    rateLimit: rateLimitOf(headers),
    sandbox: sandboxOf(headers),
    clockOffset: clockOffsetOf(headers.get('Date'), sentAt, receivedAt),
  };
  const body = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return { body, ...told };
  throw new ApiError(response.status, errorMessageOf(response, body), told);
}

/** POST /api/auth with a form body: the temporary login and password. */
export async function requestCredentials({ tool, login, password }) {
  const sent = await send('api/auth', {
    method: 'POST',
    headers: { Accept: 'application/json' },
    body: new URLSearchParams({ tool, login, password }),
  });
  return answerOf(sent);
}

/** A raw-data resource with HTTP Basic and the temporary credentials. */
export async function getReport(credentials, address) {
  const sent = await send(address, {
    headers: { Accept: 'application/json', Authorization: `Basic ${btoa(`${credentials.login}:${credentials.password}`)}` },
  });
  return answerOf(sent);
}
