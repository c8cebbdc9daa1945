import type { Region } from '../../domain/caller-region';
import { CALLER_SHAPES, planCallers, planShaped, type CallerPlan, type Unmet } from './caller-plan';
import { regionBook } from './caller-regions';
import type { DayCallers } from './caller-regions';
import type { AccountCallerFigures, CallerFigures } from './figures';
import { shareCallers } from './shared-callers';

/*
 * The callers of every mirrored number at once: each number planned alone (caller-plan.ts), then callers of
 * different numbers made one (shared-callers.ts), so that the account's distinct callers (ALL) come near
 * the source's, or equal it, while every number's figures stay as its own plan met them.
 */

/** A number's plan, its callers being the account's. */
export interface NumberPlan {
  /** Per day of the range, the account's callers who call the number, and their calls. */
  readonly days: readonly DayCallers[];
  /** The number's distinct callers over the range. */
  readonly callers: number;
  /** The number's figures not met. */
  readonly unmet: readonly Unmet[];
}

export interface AccountPlan {
  /** Per number, in the order of the figures. */
  readonly numbers: readonly NumberPlan[];
  /** Each of the account's callers' region, a caller being an index into it. */
  readonly regionOf: readonly Region[];
  /** ALL's distinct counts not met; empty too when ALL was not planned (one number, or no figures of ALL). */
  readonly allUnmet: readonly Unmet[];
}

function numberPlan(plan: CallerPlan, callerOf: (caller: number) => number): NumberPlan {
  return { days: plan.days.map((day) => ({ callers: day.callers.map(callerOf), calls: day.calls })), callers: plan.regionOf.length, unmet: plan.unmet };
}

/** Tries of the sharing with other orders, each another mixing of who is tried with whom. */
const ORDERS = 8;
/**
 * How many callers the tries of the sharing may take in all: a try that leaves an ALL count unmet is made
 * again while they stay under it, so a small account is tried many times and one of millions of callers once.
 */
const MOST_CALLERS_TRIED = 2_000_000;

/**
 * Every number's callers: with ALL's figures and more than one number, shared between numbers
 * (shareCallers); else each number's its own. While ALL's counts are not all met, the sharing is tried again
 * in other orders, and then with each number planned in each of the plan's shapes that meets as many of its
 * figures: the try that meets the most of ALL's is kept.
 */
export function planAccount(numbers: readonly CallerFigures[], all: AccountCallerFigures | undefined): AccountPlan {
  const plans = numbers.map((figures) => planCallers(figures));
  if (all === undefined || plans.length < 2) {
    const offsets = plans.map((_, index) => plans.slice(0, index).reduce((sum, plan) => sum + plan.regionOf.length, 0));
    return { numbers: plans.map((plan, index) => numberPlan(plan, (caller) => caller + (offsets[index] ?? 0))), regionOf: plans.flatMap((plan) => plan.regionOf), allUnmet: [] };
  }
  const stretchOfDay = new Int32Array(all.days.length);
  numbers[0]?.regions.forEach((stretch, index) => stretchOfDay.fill(index, stretch.first, stretch.last + 1));
  const callersOf = (some: readonly CallerPlan[]) => some.reduce((sum, plan) => sum + plan.regionOf.length, 0);
  let best = { plans, shared: shareCallers(plans, all, stretchOfDay, 0) };
  let tried = callersOf(plans);
  // Each number planned in another shape only when a try with it is still to be made.
  const triesLeft = () => best.shared.unmet.length > 0 && tried + callersOf(plans) <= MOST_CALLERS_TRIED;
  for (const shape of [undefined, ...CALLER_SHAPES]) {
    if (!triesLeft()) break;
    const shaped =
      shape === undefined
        ? plans
        : numbers.map((figures, index) => {
            const plan = planShaped(figures, regionBook(figures), shape);
            return plan.unmet.length <= (plans[index]?.unmet.length ?? 0) ? plan : (plans[index] ?? plan);
          });
    for (let order = shape === undefined ? 1 : 0; order < ORDERS && triesLeft(); order += 1) {
      tried += callersOf(shaped);
      const shared = shareCallers(shaped, all, stretchOfDay, order);
      if (shared.unmet.length < best.shared.unmet.length) best = { plans: shaped, shared };
    }
  }
  const { shared } = best;
  return { numbers: best.plans.map((plan, index) => numberPlan(plan, (caller) => shared.callerOf[index]?.[caller] ?? 0)), regionOf: shared.regionOf, allUnmet: shared.unmet };
}
