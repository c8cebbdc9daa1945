import { AdminApiError, listCalls, openCallStream } from './admin-api.js';
import { eventStreamParser } from './event-stream.js';

/** The wait before reconnecting a stream that dropped, doubled after each attempt that fails, up to the most. */
const FIRST_RETRY_MS = 1000;
const MOST_RETRY_MS = 30_000;
/** How often the page asks for new calls when it cannot have a stream. */
export const POLL_SECONDS = 2;

/** Refusals that no retry mends: the token is no longer taken (401), or the admin API is gone (404). */
const isFinal = (error) => error instanceof AdminApiError && (error.status === 401 || error.status === 404);

/** The server has as many streams open as it allows: polling takes none. */
const isStreamRefused = (error) => error instanceof AdminApiError && error.code === 'IVR_TOO_MANY_STREAMS';

/**
 * The survey calls after `afterSeq`, as they come, by the stream of calls: reconnected with the last seq
 * seen after a drop (the server sends the calls kept since then first), with a growing wait between
 * attempts. While the server refuses another stream, by polling instead, every POLL_SECONDS, the calls
 * of `session()` only (the stream has no filter; the page filters what it sends).
 *
 * `onCalls(calls)` gets each batch of new calls; `onState(state)` what the feed is doing: `{ kind: 'live' }`,
 * `{ kind: 'reconnecting', seconds }`, `{ kind: 'polling', failure }` (the last poll's failure, if it
 * failed); `onRefused(error)` a refusal that ends the feed. `stop()` ends it.
 */
export function followCalls({ token, afterSeq, session, onCalls, onState, onRefused }) {
  const controller = new AbortController();
  const { signal } = controller;
  let lastSeq = afterSeq;

  const deliver = (calls) => {
    // A poll's answer may come after the feed stopped (signed out): it belongs to no one.
    if (calls.length === 0 || signal.aborted) return;
    lastSeq = Math.max(lastSeq, ...calls.map(({ seq }) => seq));
    onCalls(calls);
  };

  /** Resolves after `ms`, or at once when the feed stops. */
  const wait = (ms) =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });

  /** Hands on the calls of each chunk read together, until the stream ends. */
  async function readStream(response) {
    const batch = [];
    const parser = eventStreamParser(({ type, data }) => {
      if (type === 'call') batch.push(JSON.parse(data));
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.push(value);
      deliver(batch.splice(0));
    }
  }

  async function poll() {
    onState({ kind: 'polling' });
    while (!signal.aborted) {
      await wait(POLL_SECONDS * 1000);
      if (signal.aborted) return;
      try {
        deliver((await listCalls(token, { session: session(), after: lastSeq })).calls);
        onState({ kind: 'polling' });
      } catch (error) {
        if (isFinal(error)) {
          controller.abort();
          onRefused(error);
          return;
        }
        onState({ kind: 'polling', failure: error.message });
      }
    }
  }

  async function stream() {
    let retryMs = FIRST_RETRY_MS;
    while (!signal.aborted) {
      try {
        const response = await openCallStream(token, lastSeq, signal);
        retryMs = FIRST_RETRY_MS;
        onState({ kind: 'live' });
        await readStream(response);
      } catch (error) {
        if (signal.aborted) return;
        if (isStreamRefused(error)) {
          await poll();
          return;
        }
        if (isFinal(error)) {
          controller.abort();
          onRefused(error);
          return;
        }
      }
      if (signal.aborted) return;
      onState({ kind: 'reconnecting', seconds: retryMs / 1000 });
      await wait(retryMs);
      retryMs = Math.min(retryMs * 2, MOST_RETRY_MS);
    }
  }

  void stream();
  return { stop: () => controller.abort() };
}
