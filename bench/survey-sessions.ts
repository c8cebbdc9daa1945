/**
 * Memory of one survey session in the in-memory store (run by bench/survey.ts, with --expose-gc): the
 * heap grown by SESSIONS sessions saved as the service saves them (fresh ids, the sample handler's
 * state as JSON), divided by their number. Prints one JSON line (printResult).
 */
import type * as SurveySessionsModule from '../src/storage/memory/survey-sessions';
import type * as SessionCookieModule from '../src/survey/sessions/session-cookie';
import { compiled } from './compiled';
import { printResult } from './processes';

const SESSIONS = 100_000;

function heapUsed(): number {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const { createMemorySurveySessions } = await compiled<typeof SurveySessionsModule>('storage/memory/survey-sessions');
  const { newSessionId } = await compiled<typeof SessionCookieModule>('survey/sessions/session-cookie');
  const sessions = createMemorySurveySessions();
  const before = heapUsed();
  const now = Date.now();
  let lastId = '';
  for (let index = 0; index < SESSIONS; index += 1) {
    const stateJson = JSON.stringify({ acceptedBefore: index % 2 === 0 });
    lastId = newSessionId();
    await sessions.save({ id: lastId, stateJson, expiresAt: now + 3_600_000 }, now, SESSIONS);
  }
  const after = heapUsed();
  // Read after measuring, so that the sessions are still alive when the heap is measured.
  if ((await sessions.get(lastId, now)) === undefined) throw new Error('the last session is gone');
  printResult({ sessions: SESSIONS, bytesPerSession: Math.round((after - before) / SESSIONS) });
}

void main();
