import type { Representation } from '../../http/representation';
import type { GeographicReport } from './report';

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
