/**
 * The number of stored survey sessions, kept by every save, so that the SURVEY_MAX_SESSIONS cap costs
 * one row update instead of counting the table on each call.
 */
export const surveySessionCount = `
CREATE TABLE survey_session_count (
  single boolean PRIMARY KEY DEFAULT true CHECK (single),
  stored bigint NOT NULL
);
INSERT INTO survey_session_count (stored) SELECT count(*) FROM survey_sessions;
`;
