/** What a request's answer was: its status code, or `aborted` when the client left before it was complete. */
export type Outcome = number | 'aborted';

/** The numbers kept of one route pattern and method: counts by outcome, and the latency histogram's. */
interface Series {
  readonly route: string;
  readonly method: string;
  /** By status code; index 0 counts the aborted. */
  readonly outcomes: Float64Array;
  /** One count per bucket, not cumulative; the last is +Inf's. */
  readonly buckets: Float64Array;
  sum: number;
  /** The last request of each bucket: prom-client's exemplar of that bucket (request id, seconds, when). */
  readonly exemplarIds: (string | undefined)[];
  readonly exemplarSeconds: Float64Array;
  readonly exemplarTimes: Float64Array;
}

const STATUS_SLOTS = 600;
const ABORTED_SLOT = 0;

/** One sample as prom-client's registries read it (their types leave `sharedLabels` and exemplars out). */
interface Sample {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly sharedLabels?: Readonly<Record<string, string>>;
  readonly value: number;
  readonly metricName?: string;
  readonly exemplar?: { readonly labelSet: Readonly<Record<string, string>>; readonly value: number; readonly timestamp: number };
}

interface Samples {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  readonly values: readonly Sample[];
}

/**
 * A metric as prom-client's registries read it: its name, help and type, and its samples at scrape time
 * (`getForPromString` when it has one, as a registry writes a histogram's).
 */
export interface ScrapedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<Samples>;
  getForPromString?(): Promise<Samples>;
}

interface Described {
  readonly name: string;
  readonly help: string;
}

/**
 * The request counter and latency histogram of the app's metrics, kept as plain numbers and written out
 * in prom-client's shapes only when scraped. Recording a request costs two map lookups by strings the
 * request already holds, a bucket found among fifteen bounds and a few increments; prom-client's own
 * `inc` and `observe` build and hash a label set on every call (about 5% of a kept report's busy time in
 * the profiles of docs/performance-costs.md; what the metrics cost now, `npm run bench` measures by taking
 * them out). The samples scraped are the ones prom-client writes: same names, labels,
 * label order, cumulative buckets and exemplars (the last request id of each bucket, as its
 * `updateExemplar` keeps).
 */
export class RequestTally {
  private readonly byRoute = new Map<string, Map<string, Series>>();
  private readonly ordered: Series[] = [];

  constructor(private readonly bounds: readonly number[]) {}

  record(route: string, method: string, outcome: Outcome, seconds: number, requestId: string | undefined): void {
    const series = this.series(route, method);
    const slot = outcome === 'aborted' ? ABORTED_SLOT : outcome;
    series.outcomes[slot] = (series.outcomes[slot] as number) + 1;
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket += 1;
    series.buckets[bucket] = (series.buckets[bucket] as number) + 1;
    series.sum += seconds;
    if (requestId !== undefined) {
      series.exemplarIds[bucket] = requestId;
      series.exemplarSeconds[bucket] = seconds;
      series.exemplarTimes[bucket] = Date.now() / 1000;
    }
  }

  private series(route: string, method: string): Series {
    let methods = this.byRoute.get(route);
    if (methods === undefined) {
      methods = new Map();
      this.byRoute.set(route, methods);
    }
    let series = methods.get(method);
    if (series === undefined) {
      const slots = this.bounds.length + 1;
      series = {
        route,
        method,
        outcomes: new Float64Array(STATUS_SLOTS),
        buckets: new Float64Array(slots),
        sum: 0,
        exemplarIds: new Array<string | undefined>(slots).fill(undefined),
        exemplarSeconds: new Float64Array(slots),
        exemplarTimes: new Float64Array(slots),
      };
      methods.set(method, series);
      this.ordered.push(series);
    }
    return series;
  }

  /** `{route, method, status}`: one sample per outcome seen, in the order first seen. */
  counter({ name, help }: Described): ScrapedMetric {
    const samples = (): Sample[] =>
      this.ordered.flatMap(({ route, method, outcomes }) => {
        const seen: Sample[] = [];
        outcomes.forEach((value, slot) => {
          if (value > 0) seen.push({ labels: { route, method, status: slot === ABORTED_SLOT ? 'aborted' : String(slot) }, value });
        });
        return seen;
      });
    const described = { name, help, type: 'counter', aggregator: 'sum' } as const;
    return { ...described, get: () => Promise.resolve({ ...described, values: samples() }) };
  }

  /** `{le, route, method}` buckets, then `_sum` and `_count`, per route and method. */
  histogram({ name, help }: Described): ScrapedMetric {
    const described = { name, help, type: 'histogram', aggregator: 'sum' } as const;
    const samples = (): Sample[] =>
      this.ordered.flatMap((series) => {
        const shared = { route: series.route, method: series.method };
        const exemplar = (bucket: number) => {
          const id = series.exemplarIds[bucket];
          return id === undefined
            ? undefined
            : { labelSet: { request_id: id }, value: series.exemplarSeconds[bucket] as number, timestamp: series.exemplarTimes[bucket] as number };
        };
        let cumulative = 0;
        const values: Sample[] = [];
        series.buckets.forEach((count, bucket) => {
          cumulative += count;
          const le = bucket < this.bounds.length ? (this.bounds[bucket] as number) : '+Inf';
          values.push({ labels: { le }, sharedLabels: shared, value: cumulative, metricName: `${name}_bucket`, exemplar: exemplar(bucket) });
        });
        values.push(
          { labels: {}, sharedLabels: shared, value: series.sum, metricName: `${name}_sum` },
          { labels: {}, sharedLabels: shared, value: cumulative, metricName: `${name}_count` },
        );
        return values;
      });
    return {
      ...described,
      getForPromString: () => Promise.resolve({ ...described, values: samples() }),
      // As prom-client's `get`: the route and method among each sample's labels.
      get: () =>
        Promise.resolve({
          ...described,
          values: samples().map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })),
        }),
    };
  }
}
