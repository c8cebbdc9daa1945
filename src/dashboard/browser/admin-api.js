/**
 * The call inspector of the admin API as the page calls it: `GET /admin/survey/calls` and its stream,
 * with the admin token as a Bearer token. No cookie or HTTP authentication the browser keeps is sent
 * (`credentials: 'omit'`), and no answer comes from the browser's cache (`no-store`): each is the ring now.
 */
import { errorMessageOf, UNREACHABLE } from './api.js';

/** The server mounts /admin only with ADMIN_TOKEN: without it every admin path is a 404. */
const ADMIN_OFF = 'The admin API is off: start the server with ADMIN_TOKEN.';

export class AdminApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'AdminApiError';
    /** 0 when no answer came. */
    this.status = status;
    /** The error catalogue's code (X-Error-Code), when the server gave one. */
    this.code = code;
  }
}

async function send(address, token, headers = {}, signal = undefined) {
  try {
    return await fetch(address, {
      headers: { ...headers, Authorization: `Bearer ${token}` },
      credentials: 'omit',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new AdminApiError(0, undefined, UNREACHABLE);
  }
}

/** The refusal's message as the API words it, but for the 404 of an admin API that is off. */
async function refusalOf(response) {
  if (response.status === 404) return new AdminApiError(404, response.headers.get('X-Error-Code') ?? undefined, ADMIN_OFF);
  const body = await response.json().catch(() => undefined);
  return new AdminApiError(response.status, response.headers.get('X-Error-Code') ?? undefined, errorMessageOf(response, body));
}

/** `{ capacity, calls }`, newest first: those of `session` only when given, those after `after` when given. */
export async function listCalls(token, { session = '', after = undefined } = {}) {
  const query = new URLSearchParams();
  if (session !== '') query.set('session', session);
  if (after !== undefined) query.set('after', String(after));
  const search = String(query);
  const response = await send(`admin/survey/calls${search === '' ? '' : `?${search}`}`, token, { Accept: 'application/json' });
  if (!response.ok) throw await refusalOf(response);
  return response.json();
}

/**
 * The open stream of calls (its answer, to read the body of), after the call `lastSeq` when given: the
 * server first sends the calls it keeps after that one, so none is missed between two connections.
 */
export async function openCallStream(token, lastSeq, signal) {
  const headers = { Accept: 'text/event-stream' };
  if (lastSeq !== undefined) headers['Last-Event-ID'] = String(lastSeq);
  const response = await send('admin/survey/calls/stream', token, headers, signal);
  if (!response.ok) throw await refusalOf(response);
  return response;
}
