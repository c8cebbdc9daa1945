/** The first schema: every table of the Store interface. Times are milliseconds since the epoch. */
export const initialSchema = `
CREATE TABLE accounts (
  id text PRIMARY KEY,
  tool text NOT NULL,
  login text NOT NULL,
  password_hash text NOT NULL,
  active boolean NOT NULL,
  time_zone text NOT NULL,
  -- Listing keeps the order in which accounts were first saved, as the in-memory store does.
  position bigserial NOT NULL
);

CREATE TABLE phones (
  phone text PRIMARY KEY,
  account_id text NOT NULL
);
CREATE INDEX phones_by_account ON phones (account_id);

CREATE TABLE temporary_credentials (
  login text PRIMARY KEY,
  password_digest text NOT NULL,
  account_id text NOT NULL,
  last_used_at bigint NOT NULL
);
CREATE INDEX temporary_credentials_by_last_use ON temporary_credentials (last_used_at);

CREATE TABLE calls (
  call_id text PRIMARY KEY,
  phone text NOT NULL,
  started_at bigint NOT NULL,
  log_events integer NOT NULL,
  loops integer NOT NULL,
  form_items integer NOT NULL
);
CREATE INDEX calls_by_phone ON calls (phone, started_at);

-- Sums per phone and local day (days since 1970-01-01 in the owner's time zone), written in the
-- transaction that writes the calls, so the event tracker reads days, never calls.
CREATE TABLE daily_rollups (
  phone text NOT NULL,
  day integer NOT NULL,
  calls bigint NOT NULL,
  log_events bigint NOT NULL,
  loops bigint NOT NULL,
  form_items bigint NOT NULL,
  PRIMARY KEY (phone, day)
);

CREATE TABLE survey_sessions (
  id text PRIMARY KEY,
  state_json text NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX survey_sessions_by_expiry ON survey_sessions (expires_at);

CREATE TABLE rate_limit_windows (
  key text NOT NULL,
  window_start bigint NOT NULL,
  window_end bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_windows_by_end ON rate_limit_windows (window_end);
`;
