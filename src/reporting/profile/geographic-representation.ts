import { z } from 'zod';
import { US_STATES } from '../../domain/caller-region';
import type { Representation } from '../../http/representation';
import { TOLL_FREE_KEY, type GeographicReport } from './geographic-report';

const calls = z.number().int().min(0);

/** The geographic report's JSON body. */
export const geographicBodySchema = z
  .strictObject({
    US: z
      .strictObject(Object.fromEntries([...US_STATES, TOLL_FREE_KEY].map((key) => [key, calls])))
      .meta({ description: `Calls per state and DC (zero-filled, in the reference's order: by state name, DC after CT), then ${TOLL_FREE_KEY} last` }),
    NON_US: z
      .array(
        z.strictObject({
          country: z.string().regex(/^[A-Z]{2}$/).meta({ description: 'ISO 3166-1 alpha-2 code; ZZ for numbers nothing can place' }),
          calls,
        }),
      )
      .meta({ description: 'Every other country with calls, most calls first, then by code' }),
  })
  .meta({ id: 'GeographicReport', description: "Calls over the range by where the caller's number is from; calls without a caller are not counted" });

/** The geographic report's XML body: `<state code="AK">0</state>` is beyond OpenAPI's XML object, so it is shown by example. */
export const geographicXmlSchema = z.string().meta({
  id: 'GeographicReportXml',
  description: '<result><US> holding a <state code="..."> element per key of US, then <NON_US> a <country code="..."> element per country',
});

/** `{"US":{"AK":0,...,"US Toll-Free":1},"NON_US":[{"country":"CA","calls":3}]}`; no key is integer-like, so insertion order holds. */
function toJson(report: GeographicReport): string {
  return JSON.stringify({
    US: Object.fromEntries(report.us),
    NON_US: report.nonUs.map(({ country, calls }) => ({ country, calls })),
  });
}

/** `<US><state code="AK">0</state>...</US><NON_US><country code="CA">3</country></NON_US>` */
function toXml(report: GeographicReport): Record<string, unknown> {
  return {
    US: { state: report.us.map(([code, calls]) => ({ $: { code }, _: String(calls) })) },
    NON_US: report.nonUs.length === 0 ? {} : { country: report.nonUs.map(({ country, calls }) => ({ $: { code: country }, _: String(calls) })) },
  };
}

export function geographicRepresentation(report: GeographicReport): Representation {
  return { json: () => toJson(report), xml: () => toXml(report) };
}
