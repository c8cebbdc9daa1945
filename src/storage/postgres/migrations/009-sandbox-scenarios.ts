/**
 * The sandbox's failure scenarios (POST /admin/scenarios), kept with the data so that every instance
 * answers from the same ones. A handful of rows at most: every auth, data and survey request reads them.
 */
export const sandboxScenarios = `
CREATE TABLE sandbox_scenarios (
  id text PRIMARY KEY,
  position bigserial NOT NULL UNIQUE,
  target text NOT NULL,
  tool text,
  login text,
  client_address text,
  status integer,
  fault_string text,
  delay_ms integer,
  retry_after_seconds integer,
  times integer,
  fired integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);
`;
