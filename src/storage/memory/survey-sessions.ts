import type { SurveySessionRepository } from '../store';

/** What a session keeps besides its id, the map's key: two fields, so a session costs little memory. */
interface StoredSession {
  readonly stateJson: string;
  readonly expiresAt: number;
}

/**
 * Survey sessions in process memory. Each save moves its session to the end of the map and every
 * session lives for the same idle time, so the map stays ordered by expiry: expired sessions, and
 * beyond the cap the longest idle, are dropped from its front. Memory stays bounded even for callers
 * that never send their cookie back.
 */
export function createMemorySurveySessions(): SurveySessionRepository {
  const sessions = new Map<string, StoredSession>();

  function forgetExpiredAndOldest(now: number, maxSessions: number): void {
    for (const [id, session] of sessions) {
      if (session.expiresAt > now && sessions.size <= maxSessions) return;
      sessions.delete(id);
    }
  }

  return {
    get: (id, now) => {
      const session = sessions.get(id);
      return Promise.resolve(session !== undefined && session.expiresAt > now ? { id, ...session } : undefined);
    },
    save: ({ id, stateJson, expiresAt }, now, maxSessions) => {
      sessions.delete(id);
      sessions.set(id, { stateJson, expiresAt });
      forgetExpiredAndOldest(now, maxSessions);
      return Promise.resolve();
    },
    live: (now) => {
      // Expired sessions stay until the next save forgets them; asked once per metrics scrape, a scan of at most SURVEY_MAX_SESSIONS.
      let live = 0;
      for (const session of sessions.values()) if (session.expiresAt > now) live += 1;
      return Promise.resolve(live);
    },
  };
}
