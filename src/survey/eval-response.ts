import { SOAP_11_ENVELOPE, SURVEY_OPERATIONS, SURVEY_SERVICE, type SurveyOperation } from './wsdl';

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Each operation's envelope around its answer, written once. */
const FRAMES = new Map(
  SURVEY_OPERATIONS.map((operation) => [
    operation,
    {
      head:
        '<?xml version="1.0" encoding="UTF-8"?>' +
        `<soap:Envelope xmlns:soap="${SOAP_11_ENVELOPE}" xmlns:tns="${SURVEY_SERVICE.namespace}" ` +
        'soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
        `<soap:Body><tns:${operation}Response><${operation}Response>`,
      tail: `</${operation}Response></tns:${operation}Response></soap:Body></soap:Envelope>`,
    },
  ]),
);

/**
 * The rpc/encoded answer of svcEval or plumEval: the wrapper element in the body namespace and the part unqualified,
 * as SOAP 1.1 rpc style has it, untyped since the WSDL gives its type (a typed part reaches the soap
 * package's client as an object). The response was checked to hold only characters XML can carry.
 *
 * The same bytes as xml2js's Builder writes (asserted by `npm run bench:fast-paths`), which takes 7.2 µs an
 * answer against 0.08 µs here (2026-11-25, pinned to one core): some 2% of a svcEval call at full load.
 */
export function evalResponseEnvelope(operation: SurveyOperation, response: string): string {
  const { head, tail } = FRAMES.get(operation) as { head: string; tail: string };
  return head + response.replace(/[&<>]/g, (character) => TEXT_ESCAPES[character] ?? character) + tail;
}
