import { SOAP_11_ENVELOPE, SURVEY_SERVICE } from './wsdl';

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  `<soap:Envelope xmlns:soap="${SOAP_11_ENVELOPE}" xmlns:tns="${SURVEY_SERVICE.namespace}" ` +
  'soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
  '<soap:Body><tns:svcEvalResponse><svcEvalResponse>';
const TAIL = '</svcEvalResponse></tns:svcEvalResponse></soap:Body></soap:Envelope>';

/**
 * The rpc/encoded answer of svcEval: the wrapper element in the body namespace and the part unqualified,
 * as SOAP 1.1 rpc style has it, untyped since the WSDL gives its type (a typed part reaches the soap
 * package's client as an object). The response was checked to hold only characters XML can carry.
 */
export function svcEvalResponseEnvelope(response: string): string {
  return HEAD + response.replace(/[&<>]/g, (character) => TEXT_ESCAPES[character] ?? character) + TAIL;
}
