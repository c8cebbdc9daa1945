/**
 * A scenario that faults the connection (src/http/connection-faults/): which fault, and a drip's rate.
 * Columns added empty rewrite no row; an instance of the version before answers such a scenario with its
 * status or its delay alone, and reads one with neither as its real answer.
 */
export const scenarioConnectionFaults = `
ALTER TABLE sandbox_scenarios
  ADD COLUMN connection text,
  ADD COLUMN bytes_per_second integer,
  ADD CONSTRAINT sandbox_scenarios_connection CHECK (connection IN ('reset', 'empty', 'truncated', 'drip')),
  ADD CONSTRAINT sandbox_scenarios_bytes_per_second CHECK ((connection IS NOT DISTINCT FROM 'drip') = (bytes_per_second IS NOT NULL) AND bytes_per_second > 0);
`;
