import { emptyDayTotals } from '../../src/storage/day-totals';
import type { DayTotals } from '../../src/storage/store';

/** A day's totals with every counter not given at 0, as the stores report a day of version-1 calls. */
export const dayTotals = (given: Partial<DayTotals> & Pick<DayTotals, 'day' | 'calls'>): DayTotals => ({ ...emptyDayTotals(given.day), ...given });
