import type { Representation } from '../../http/representation';
import type { FlowReport } from './report';

/**
 * Written by hand around JSON.stringify: application URLs are object keys, and an integer-like one would
 * be moved first by the engine, breaking the ascending order the specification fixes.
 */
function toJson(report: FlowReport): string {
  const applications = report.applications.map(([url, entries]) => `${JSON.stringify(url)}:${JSON.stringify(entries)}`);
  return `{"applications":{${applications.join(',')}}}`;
}

/** `<applications><application url="..."><entry><page>...</page>...<visits>985</visits>...</entry></application></applications>` */
function toXml(report: FlowReport): Record<string, unknown> {
  if (report.applications.length === 0) return { applications: {} };
  return {
    applications: {
      application: report.applications.map(([url, entries]) => ({
        $: { url },
        entry: entries.map((entry) => Object.fromEntries(Object.entries(entry).map(([name, value]) => [name, String(value)]))),
      })),
    },
  };
}

export function flowRepresentation(report: FlowReport): Representation {
  return { json: () => toJson(report), xml: () => toXml(report) };
}
