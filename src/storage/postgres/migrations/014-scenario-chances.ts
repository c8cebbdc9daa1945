/**
 * A scenario that answers by chance: its probability, the seed of its draws and how many it has drawn
 * (src/storage/scenario-draws.ts). Columns added empty rewrite no row; an instance of the version before
 * sees such a scenario as one that answers every request it matches, as it would have before.
 */
export const scenarioChances = `
ALTER TABLE sandbox_scenarios
  ADD COLUMN probability double precision,
  ADD COLUMN seed integer,
  ADD COLUMN draws integer NOT NULL DEFAULT 0,
  ADD CONSTRAINT sandbox_scenarios_probability CHECK (probability > 0 AND probability <= 1),
  ADD CONSTRAINT sandbox_scenarios_seed CHECK ((probability IS NULL) = (seed IS NULL) AND seed >= 0);
`;
