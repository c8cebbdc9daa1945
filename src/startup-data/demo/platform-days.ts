import { between, mulberry32, seedFrom, type Random } from './random';

/** How the platform behaved on one local day, the same for every phone of the account. */
export interface DayConditions {
  /** Scales every page load: the back ends are slower on some days than on others. */
  readonly pageLoadFactor: number;
  readonly jsErrorShare: number;
  readonly fetchErrorShare: number;
}

/** Each block of this many days has one incident day (a bad release, a slow back end): a spike to chart. */
const INCIDENT_EVERY_DAYS = 21;
const NORMAL_JS_ERROR_SHARE = 0.01;
const NORMAL_FETCH_ERROR_SHARE = 0.02;
const INCIDENT_JS_ERROR_SHARE = 0.2;
const INCIDENT_FETCH_ERROR_SHARE = 0.12;
const INCIDENT_SLOWDOWN = 2.5;

function isIncidentDay(seed: number, epochDay: number): boolean {
  const block = Math.floor(epochDay / INCIDENT_EVERY_DAYS);
  const incidentOffset = Math.floor(mulberry32(seedFrom(seed, 'incident', block))() * INCIDENT_EVERY_DAYS);
  return epochDay === block * INCIDENT_EVERY_DAYS + incidentOffset;
}

export function dayConditions(seed: number, epochDay: number): DayConditions {
  const pageLoadFactor = between(mulberry32(seedFrom(seed, 'page loads', epochDay)), 0.85, 1.2);
  if (!isIncidentDay(seed, epochDay)) {
    return { pageLoadFactor, jsErrorShare: NORMAL_JS_ERROR_SHARE, fetchErrorShare: NORMAL_FETCH_ERROR_SHARE };
  }
  return {
    pageLoadFactor: pageLoadFactor * INCIDENT_SLOWDOWN,
    jsErrorShare: INCIDENT_JS_ERROR_SHARE,
    fetchErrorShare: INCIDENT_FETCH_ERROR_SHARE,
  };
}

/** A few hundred milliseconds per document, more on a slow day. */
export function pageLoadSeconds(random: Random, pageLoads: number, pageLoadFactor: number): number {
  let seconds = 0;
  for (let load = 0; load < pageLoads; load += 1) seconds += between(random, 0.12, 0.45) * pageLoadFactor;
  return seconds;
}
