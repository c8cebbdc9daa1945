import { soapXml } from './soap-xml';
import { SOAP_11_ENVELOPE, SURVEY_SERVICE, type SurveyOperation } from './wsdl';

/**
 * The rpc/encoded answer of svcEval or plumEval: the wrapper element in the body namespace and the part unqualified,
 * as SOAP 1.1 rpc style has it, untyped since the WSDL gives its type (a typed part reaches the soap
 * package's client as an object). The response was checked to hold only characters XML can carry.
 *
 * Written by xml2js's Builder, as the faults are: the hand-written envelope it replaced bought less of a
 * svcEval call than a shortcut must buy to stay (docs/performance-costs.md, "Hand-written shortcuts on
 * Node.js 24").
 */
export function evalResponseEnvelope(operation: SurveyOperation, response: string): string {
  return soapXml.buildObject({
    'soap:Envelope': {
      $: { 'xmlns:soap': SOAP_11_ENVELOPE, 'xmlns:tns': SURVEY_SERVICE.namespace, 'soap:encodingStyle': 'http://schemas.xmlsoap.org/soap/encoding/' },
      'soap:Body': { [`tns:${operation}Response`]: { [`${operation}Response`]: response } },
    },
  });
}
