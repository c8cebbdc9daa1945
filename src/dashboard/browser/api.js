/**
 * The reporting API as the page calls it: the same requests as any client, counted in the same limit
 * groups. No cookie or HTTP authentication the browser keeps is sent (`credentials: 'omit'`), so a
 * refused pair never opens the browser's own sign-in dialog.
 */

export class ApiError extends Error {
  constructor(status, message, rateLimit) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.rateLimit = rateLimit;
  }
}

/** X-RateLimit-Limit, -Remaining and -Reset (a Unix second), when the answer went through a limit group. */
function rateLimitOf(headers) {
  const values = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => headers.get(name));
  if (values.some((value) => value === null)) return undefined;
  const [limit, remaining, reset] = values.map(Number);
  return { limit, remaining, reset };
}

async function send(address, init) {
  try {
    return await fetch(address, { ...init, credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'The server could not be reached: check the connection, then try again.');
  }
}

/** The JSON body of a success; otherwise the error body's message, as the API words it. */
async function answerOf(response) {
  const rateLimit = rateLimitOf(response.headers);
  const body = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return { body, rateLimit };
  const message = typeof body?.error === 'string' ? body.error : `The server answered ${response.status} ${response.statusText}`.trim();
  throw new ApiError(response.status, message, rateLimit);
}

/** POST /api/auth with a form body: the temporary login and password. */
export async function requestCredentials({ tool, login, password }) {
  const response = await send('api/auth', {
    method: 'POST',
    headers: { Accept: 'application/json' },
    body: new URLSearchParams({ tool, login, password }),
  });
  return answerOf(response);
}

/** A raw-data resource with HTTP Basic and the temporary credentials. */
export async function getReport(credentials, address) {
  const response = await send(address, {
    headers: { Accept: 'application/json', Authorization: `Basic ${btoa(`${credentials.login}:${credentials.password}`)}` },
  });
  return answerOf(response);
}
