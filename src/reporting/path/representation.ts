import { z } from 'zod';
import { PATH_STEP_COUNTERS } from '../../domain/call-record';
import type { Representation } from '../../http/representation';
import { MAX_ENTRIES_PER_APPLICATION, type FlowReport } from './report';

const flowEntrySchema = z.strictObject({
  page: z.string(),
  form: z.string(),
  item: z.string(),
  ...Object.fromEntries(PATH_STEP_COUNTERS.map((counter) => [counter, z.number().int().min(0)])),
});

/** The diagnostic flow's JSON body. */
export const flowBodySchema = z
  .strictObject({
    applications: z.record(z.string(), z.array(flowEntrySchema).max(MAX_ENTRIES_PER_APPLICATION)).meta({
      description:
        `The form items of each application (by URL, ascending), most visited first, at most ${MAX_ENTRIES_PER_APPLICATION} ` +
        'per application; each counter summed over the calls',
    }),
  })
  .meta({ id: 'DiagnosticFlowReport' });

/** The diagnostic flow's XML body: `<application url="...">` is beyond OpenAPI's XML object, so it is shown by example. */
export const flowXmlSchema = z.string().meta({
  id: 'DiagnosticFlowReportXml',
  description:
    '<result><applications> holding an <application url="..."> element per application, each holding an <entry> per form ' +
    'item with the fields of the JSON as elements',
});

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
