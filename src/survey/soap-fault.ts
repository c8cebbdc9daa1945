import type { Response } from 'express';
import { Builder } from 'xml2js';
import type { AppError } from '../errors/catalogue';
import { SOAP_11_ENVELOPE } from './wsdl';

const builder = new Builder({
  xmldec: { version: '1.0', encoding: 'UTF-8' },
  renderOpts: { pretty: false },
  headless: false,
});

/** Errors caused by what the caller sent; every other error is the server's. */
function isCallersFault(error: AppError): boolean {
  return error.code === 'IVR_INVALID_SOAP_REQUEST' || error.statusCode < 500;
}

/** A SOAP 1.1 Fault envelope: the shape PHP's SoapClient and survey systems read (not SOAP 1.2's Code/Reason). */
export function soapFaultEnvelope(faultcode: 'soap:Client' | 'soap:Server', faultstring: string): string {
  return builder.buildObject({
    'soap:Envelope': {
      $: { 'xmlns:soap': SOAP_11_ENVELOPE },
      'soap:Body': { 'soap:Fault': { faultcode, faultstring } },
    },
  });
}

/**
 * The only place the survey web service turns an error into a response. The catalogue's status is
 * kept (500 for SOAP faults as the SOAP 1.1 HTTP binding requires, 413 and 405 from the HTTP layer),
 * and so are its headers (Allow).
 */
export function sendSoapFault(res: Response, error: AppError): void {
  res
    .status(error.statusCode)
    .set(error.headers)
    .type('text/xml; charset=utf-8')
    .send(soapFaultEnvelope(isCallersFault(error) ? 'soap:Client' : 'soap:Server', error.message));
}
