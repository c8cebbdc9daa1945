/**
 * The scenarios with answers left, indexed apart: every auth, data and survey request looks for the
 * oldest of them that matches, and the used-up ones, kept for GET /admin/scenarios, stay out of that
 * search however many there are.
 */
export const activeScenarios = `
CREATE INDEX sandbox_scenarios_active ON sandbox_scenarios (position) WHERE times IS NULL OR fired < times;
`;
