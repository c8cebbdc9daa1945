/**
 * A scenario's delay given as a distribution ({"uniform": [min, max]} or {"median": m, "p99": n}), kept as
 * it was given beside delay_ms, which keeps the fixed ones: a column added empty rewrites no row, and an
 * instance of the version before, reading delay_ms alone, sees a drawn delay as none rather than a value
 * it cannot read. A scenario has one delay or none.
 */
export const scenarioDelayDistributions = `
ALTER TABLE sandbox_scenarios
  ADD COLUMN delay_distribution jsonb,
  ADD CONSTRAINT sandbox_scenarios_one_delay CHECK (delay_ms IS NULL OR delay_distribution IS NULL);
`;
