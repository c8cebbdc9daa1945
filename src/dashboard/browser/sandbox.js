/**
 * The sandbox's failure scenarios (POST /admin/scenarios) as the answers tell them: while scenarios that
 * match a request still have answers left, its answer carries X-Sandbox-Scenarios-Active (how many), and
 * an answer a scenario forced or delayed carries X-Sandbox-Scenario (which one).
 */

/** `{ active, scenario }`: how many matching scenarios are still active (0 without the header), which one answered. */
export function sandboxOf(headers) {
  const active = headers.get('X-Sandbox-Scenarios-Active');
  const count = active !== null && /^\d+$/.test(active.trim()) ? Number(active.trim()) : 0;
  return { active: count, scenario: headers.get('X-Sandbox-Scenario') ?? undefined };
}

/** An error's message, and which scenario forced it when one did. */
export function withScenarioNote(message, scenario) {
  return scenario === undefined ? message : `${message} (forced by sandbox scenario ${scenario})`;
}

/**
 * `Sandbox: 2 failure scenarios are active for this account; answers may be forced or slowed.`, empty
 * (and so not shown) when none is. The banner stays in the page, so that screen readers announce it.
 */
export function showSandboxBanner(target, active) {
  target.textContent =
    active === 0
      ? ''
      : `Sandbox: ${active} failure ${active === 1 ? 'scenario is' : 'scenarios are'} active for this account; answers may be forced or slowed.`;
}
