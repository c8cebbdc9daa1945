import { localDayStartSeconds, localEpochDay, type EpochDay } from '../time/calendar';

/**
 * Where a rollup rebuild in `zone` starts once raw calls before `horizonMs` were dropped (both stores):
 * at the first local day that starts at or after it. That day and the later ones are computed again from
 * the calls kept; the rows of earlier days, whose calls may be gone, are kept as they were (in the zone
 * they were rolled up in). With nothing dropped, every day is computed again.
 */
export function rebuildFrom(horizonMs: number | undefined, zone: string): { readonly day: EpochDay; readonly startMs: number } | undefined {
  if (horizonMs === undefined) return undefined;
  const day = localEpochDay(horizonMs, zone);
  const start = localDayStartSeconds(day, zone) * 1000;
  return start >= horizonMs ? { day, startMs: start } : { day: day + 1, startMs: localDayStartSeconds(day + 1, zone) * 1000 };
}
