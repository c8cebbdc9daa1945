import { Registry, type Metric, type RegistryContentType } from 'prom-client';

export type ExpositionFormat = 'prometheus' | 'openmetrics';

export const CONTENT_TYPES: Readonly<Record<ExpositionFormat, RegistryContentType>> = {
  prometheus: Registry.PROMETHEUS_CONTENT_TYPE,
  openmetrics: Registry.OPENMETRICS_CONTENT_TYPE,
};

/** What a registry reads of a metric when it writes it out (prom-client's types leave name and type out). */
interface Exposed {
  readonly name: string;
  readonly type: string;
  get(): Promise<object>;
}

/**
 * A counter as an OpenMetrics scrape must show it. prom-client writes a counter's samples with `_total`
 * and its HELP and TYPE without, and does so by renaming the counter itself, for good: a later scrape in
 * the Prometheus text format would then lose the `_total` its dashboards query. This view carries the
 * OpenMetrics name instead, and leaves the counter as it is.
 */
function openMetricsCounter(counter: Exposed): Exposed {
  const name = counter.name.replace(/_total$/, '');
  return { name, type: 'counter', get: async () => ({ ...(await counter.get()), name }) };
}

/**
 * The metrics of the given registries as one text, in the format asked for. Each scrape writes through a
 * registry of its own, so that scrapes in both formats can run at once (a registry's content type is
 * state), and several registries need no merging ahead of time. Exemplars appear in OpenMetrics only, as
 * the Prometheus text format has no place for them.
 */
export async function exposition(registries: readonly Pick<Registry, 'getMetricsAsArray'>[], format: ExpositionFormat): Promise<string> {
  const scrape = new Registry<RegistryContentType>();
  scrape.setContentType(CONTENT_TYPES[format]);
  for (const registry of registries) {
    for (const metric of registry.getMetricsAsArray() as unknown as Exposed[]) {
      const exposed = format === 'openmetrics' && metric.type === 'counter' ? openMetricsCounter(metric) : metric;
      scrape.registerMetric(exposed as unknown as Metric);
    }
  }
  return scrape.metrics();
}
