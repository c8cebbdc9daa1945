import type { Pool } from 'pg';
import type { SurveySessionRepository } from '../store';

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
    save: async (session, now) => {
      // Sessions of callers that never come back are dropped here, through the expiry index.
      await pool.query('DELETE FROM survey_sessions WHERE expires_at <= $1', [now]);
      await pool.query(
        `INSERT INTO survey_sessions (id, state_json, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET state_json = excluded.state_json, expires_at = excluded.expires_at`,
        [session.id, session.stateJson, session.expiresAt],
      );
    },
  };
}
