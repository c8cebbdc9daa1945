import { collectDefaultMetrics, Registry } from 'prom-client';

let started: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, heap spaces, handles, garbage collection, event-loop delay:
 * nodejs_eventloop_lag_*), in a registry of their own rather than prom-client's global one. They describe
 * the process, not an app, and collecting them starts an event-loop delay monitor and a garbage-collection
 * observer that nothing stops: so they are started once per process, with its first app, however many
 * apps the process builds (the tests build hundreds), and every app's scrape shows the same ones.
 */
export function processMetrics(): Registry {
  if (started === undefined) {
    started = new Registry();
    collectDefaultMetrics({ register: started });
  }
  return started;
}
