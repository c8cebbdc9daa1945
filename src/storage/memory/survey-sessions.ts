import type { SurveySession, SurveySessionRepository } from '../store';

/**
 * Survey sessions in process memory. Each save moves its session to the end of the map and every
 * session lives for the same idle time, so the map stays ordered by expiry and expired sessions are
 * dropped from its front: memory stays bounded even for callers that never send their cookie back.
 */
export function createMemorySurveySessions(): SurveySessionRepository {
  const sessions = new Map<string, SurveySession>();

  function forgetExpired(now: number): void {
    for (const [id, session] of sessions) {
      if (session.expiresAt > now) return;
      sessions.delete(id);
    }
  }

  return {
    get: (id, now) => {
      const session = sessions.get(id);
      return Promise.resolve(session !== undefined && session.expiresAt > now ? session : undefined);
    },
    save: (session, now) => {
      forgetExpired(now);
      sessions.delete(session.id);
      sessions.set(session.id, session);
      return Promise.resolve();
    },
  };
}
