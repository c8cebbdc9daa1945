import type { Response } from 'express';
import type { AppError } from '../../errors/catalogue';
import { ERROR_CODE_HEADER } from '../../http/representation';
import { soapXml } from './soap-xml';
import { SOAP_11_ENVELOPE } from './wsdl';


type FaultCode = 'soap:Client' | 'soap:Server' | 'soap:MustUnderstand';

/** SOAP 1.1's fault codes: a header it must understand but does not, what the caller sent, or the server's own failure. */
function faultCodeOf(error: AppError): FaultCode {
  if (error.code === 'IVR_SOAP_MUST_UNDERSTAND') return 'soap:MustUnderstand';
  return error.statusCode < 500 ? 'soap:Client' : 'soap:Server';
}

/** Refusals of the HTTP layer, which come before any SOAP processing and keep their own status. */
const HTTP_REFUSALS: ReadonlySet<number> = new Set([405, 413, 429]);

/** A SOAP 1.1 Fault envelope: the shape PHP's SoapClient and survey systems read (not SOAP 1.2's Code/Reason). */
function soapFaultEnvelope(faultcode: FaultCode, faultstring: string): string {
  return soapXml.buildObject({
    'soap:Envelope': {
      $: { 'xmlns:soap': SOAP_11_ENVELOPE },
      'soap:Body': { 'soap:Fault': { faultcode, faultstring } },
    },
  });
}

/**
 * The only place the survey web service turns an error into a SOAP response: status 500, as the SOAP
 * 1.1 HTTP binding requires of a fault, except for the HTTP layer's 405, 413 and 429; the catalogue's
 * headers (Allow) are kept.
 */
export function sendSoapFault(res: Response, error: AppError): void {
  res
    .status(HTTP_REFUSALS.has(error.statusCode) ? error.statusCode : 500)
    .set(error.headers)
    .set(ERROR_CODE_HEADER, error.code)
    .type('text/xml; charset=utf-8')
    .send(soapFaultEnvelope(faultCodeOf(error), error.message));
}
