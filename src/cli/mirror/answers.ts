import { z } from 'zod';
import { MAX_COUNT, type PathStepCounter } from '../../domain/call-record';
import { US_STATES } from '../../domain/caller-region';
import { storableIdentifier } from '../../domain/storable-text';
import { count as grouped } from '../counts';
import { CliError } from '../cli-error';

/*
 * The source's answers, checked as they arrive: a source is any server that says it speaks the reporting
 * API, and what it says becomes calls here. Only the fields the mirror reads are checked; a field a newer
 * server adds is let through.
 */

const COUNT_RULE = 'a count must be a whole number >= 0';
const AMOUNT_RULE = 'must be a number >= 0';
const SERIES_RULE = 'must be a series, an object of one figure per day keyed by the Unix second the day starts';

const count = z.number(COUNT_RULE).int(COUNT_RULE).min(0, COUNT_RULE);
const amount = z.number(AMOUNT_RULE).min(0, AMOUNT_RULE);
const countSeries = z.record(z.string(), count, SERIES_RULE);
const amountSeries = z.record(z.string(), amount, SERIES_RULE);

export const volumeAnswer = z.object(
  { calls: countSeries, call_minutes: amountSeries, transfers: countSeries, transfer_minutes: amountSeries },
  'must be an object of series',
);
export const eventsAnswer = z.object({ calls: countSeries, log_events: countSeries, loops: countSeries, form_items: countSeries }, 'must be an object of series');
export const performanceAnswer = z.object(
  { calls: countSeries, js_errors: countSeries, fetch_errors: countSeries, average_page_load: amountSeries },
  'must be an object of series',
);
export const profileAnswer = z.object({ calls: countSeries, callers: countSeries }, 'must be an object of series');

export type VolumeAnswer = z.output<typeof volumeAnswer>;
export type EventsAnswer = z.output<typeof eventsAnswer>;
export type PerformanceAnswer = z.output<typeof performanceAnswer>;
export type ProfileAnswer = z.output<typeof profileAnswer>;

export const TOLL_FREE_KEY = 'US Toll-Free';
const US_KEYS = new Set<string>([...US_STATES, TOLL_FREE_KEY]);

export const geographicAnswer = z.object(
  {
    US: z.record(
      z.string().refine((key) => US_KEYS.has(key), 'is not a state code, DC or US Toll-Free'),
      count,
      'must be an object of calls per state',
    ),
    NON_US: z.array(
      z.object({ country: z.string('must be a country code').regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code, such as GB'), calls: count }),
      'must be a list of countries and their calls',
    ),
  },
  'must be an object of US and NON_US',
);

/** A flow row goes onto one call here, whose counters a call record bounds. */
const ROW_COUNTER_RULE = `a form item's counter must be a whole number from 0 to ${grouped(MAX_COUNT)}, the most one call record holds`;
const rowCounter = z.number(ROW_COUNTER_RULE).int(ROW_COUNTER_RULE).min(0, ROW_COUNTER_RULE).max(MAX_COUNT, ROW_COUNTER_RULE);
const rowCounters = {
  visits: rowCounter,
  filled: rowCounter,
  nomatch: rowCounter,
  noinput: rowCounter,
  transfer: rowCounter,
  disconnect: rowCounter,
} satisfies Record<PathStepCounter, typeof rowCounter>;
/** What a call record's path takes: the row's texts go into one. */
const rowText = storableIdentifier(500);

export const flowAnswer = z.object(
  {
    applications: z.record(
      rowText,
      z.array(z.object({ page: rowText, form: rowText, item: rowText, ...rowCounters }, 'must be a form item'), 'must be a list of form items'),
      'must be an object of form items per application',
    ),
  },
  'must be an object of applications',
);

export type GeographicAnswer = z.output<typeof geographicAnswer>;
export type FlowAnswer = z.output<typeof flowAnswer>;

/** Which answer, for whom, over which days: what a refusal of it names. */
export interface AnswerPlace {
  /** `volume report`, `events report`, `performance report`, `caller profile`, `geographic report`, `diagnostic flow`. */
  readonly report: string;
  readonly phone: string;
  /** The days asked, in order: a daily series' n-th key is the n-th of them. */
  readonly days: readonly string[];
  /** A series by week or month, whose keys are not the days'. */
  readonly period?: 'week' | 'month';
}

export function over({ days }: Pick<AnswerPlace, 'days'>): string {
  return `${days[0] ?? ''}-${days[days.length - 1] ?? ''}`;
}

/** A value as a refusal shows it: JSON, cut short. */
export function shown(value: unknown): string {
  // JSON.stringify gives undefined for undefined alone: a parsed answer holds nothing else it cannot write.
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** `US.MA`, `NON_US[2].calls`, `applications["https://ivr.example.com/a.vxml"][0].visits`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      if (/^[A-Za-z_][\w]*$/.test(name)) return index === 0 ? name : `.${name}`;
      return `[${JSON.stringify(name)}]`;
    })
    .join('');
}

const SERIES_ANSWERS = new Set<z.ZodType>([volumeAnswer, eventsAnswer, performanceAnswer, profileAnswer]);

/**
 * The answer, typed; else a CliError naming the report, the number, the figure (and its day, for a
 * series) and the value, as in `the source's volume report for 18005550100 on 20261003 says calls = -5:
 * a count must be a whole number >= 0`.
 */
export function checkedAnswer<Schema extends z.ZodType>(schema: Schema, answer: unknown, place: AnswerPlace): z.output<Schema> {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const value = valueAt(answer, path);
  const source = `the source's ${place.report} for ${place.phone}`;
  // A key's own problem is one level down: the record's issue says only that a key is invalid.
  const rule = (issue?.code === 'invalid_key' ? issue.issues[0]?.message : issue?.message) ?? 'is not what a reporting API answers';
  const [series, key] = path;
  if (SERIES_ANSWERS.has(schema) && path.length === 2 && typeof series === 'string' && typeof key === 'string') {
    const position = Object.keys(valueAt(answer, [series]) as object).indexOf(key);
    const day = place.period === undefined ? (place.days[position] ?? `the day keyed ${key}`) : `the ${place.period} keyed ${key}`;
    return refuse(`${source} on ${day} says ${series} = ${shown(value)}: ${rule}`);
  }
  if (path.length === 0) return refuse(`${source} over ${over(place)} is ${shown(value)}: it ${rule}`);
  if (issue?.code === 'invalid_key') return refuse(`${source} over ${over(place)} says ${pathText(path)} = ${shown(value)}: ${shown(path[path.length - 1])} ${rule}`);
  if (value === undefined) return refuse(`${source} over ${over(place)} has no ${pathText(path)}: it ${rule}`);
  return refuse(`${source} over ${over(place)} says ${pathText(path)} = ${shown(value)}: ${rule}`);
}

function refuse(message: string): never {
  throw new CliError(message);
}
