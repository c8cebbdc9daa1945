import type { Pool } from 'pg';
import type { SurveySessionRepository } from '../store';

/**
 * Saves the session, drops the expired ones (through the expiry index; never the one being saved, which
 * one statement cannot both delete and update) and moves the stored count by what changed. `xmax = 0`
 * tells an inserted row from an updated one.
 */
const SAVE = `
WITH expired AS (
  DELETE FROM survey_sessions WHERE expires_at <= $4 AND id <> $1 RETURNING 1
), saved AS (
  INSERT INTO survey_sessions (id, state_json, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT (id) DO UPDATE SET state_json = excluded.state_json, expires_at = excluded.expires_at
  RETURNING (xmax = 0) AS inserted
)
UPDATE survey_session_count
SET stored = stored + (SELECT count(*) FROM saved WHERE inserted) - (SELECT count(*) FROM expired)
RETURNING stored`;

/** Forgets the `$1` sessions that expire first (the longest idle); those another save holds are left to it. */
const DROP_OLDEST = `
WITH dropped AS (
  DELETE FROM survey_sessions WHERE id IN (
    SELECT id FROM survey_sessions ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
  ) RETURNING 1
)
UPDATE survey_session_count SET stored = stored - (SELECT count(*) FROM dropped)`;

export function postgresSurveySessions(pool: Pool): SurveySessionRepository {
  return {
    get: async (id, now) => {
      const { rows } = await pool.query<{ id: string; state_json: string; expires_at: string }>(
        'SELECT id, state_json, expires_at FROM survey_sessions WHERE id = $1 AND expires_at > $2',
        [id, now],
      );
      const row = rows[0];
      return row === undefined ? undefined : { id: row.id, stateJson: row.state_json, expiresAt: Number(row.expires_at) };
    },
    save: async (session, now, maxSessions) => {
      const { rows } = await pool.query<{ stored: string }>(SAVE, [session.id, session.stateJson, session.expiresAt, now]);
      const excess = Number(rows[0]?.stored ?? 0) - maxSessions;
      if (excess > 0) await pool.query(DROP_OLDEST, [excess]);
    },
    // Through the expiry index; asked once per metrics scrape, not per call.
    live: async (now) => {
      const { rows } = await pool.query<{ live: string }>('SELECT count(*) AS live FROM survey_sessions WHERE expires_at > $1', [now]);
      return Number(rows[0]?.live ?? 0);
    },
  };
}
