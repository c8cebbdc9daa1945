import type { Request } from 'express';
import { setImmediate as nextTurnOfEventLoop } from 'node:timers/promises';
import type { SurveyMessageLimits } from '../config/config';
import { errors } from '../errors/catalogue';
import { bodyText } from './body-stream';
import type { ReceivedParts } from './call-parts';
import { envelopeReader } from './envelope-reader';
import { SURVEY_SERVICE } from './wsdl';

/**
 * The most text parsed in one turn of the event loop. A socket or zlib chunk is at most 64 KiB; parsed
 * in 16 Ki-character pieces, even a message of small hostile elements holds other requests for a few
 * milliseconds at a time.
 */
const PIECE_LENGTH = 16_384;

/**
 * SOAP 1.1 callers name the operation in the SOAPAction header; this service accepts its own action,
 * or none (absent or empty), since the Body already names svcEval.
 */
function checkSoapAction(header: string | undefined): void {
  const action = header?.trim().replace(/^"(.*)"$/, '$1') ?? '';
  if (action !== '' && action !== SURVEY_SERVICE.soapAction) {
    const shown = action.length > 64 ? `${action.slice(0, 64)}...` : action;
    throw errors.invalidSurveyCall(`unknown SOAPAction ${shown}; this service answers ${SURVEY_SERVICE.soapAction}`);
  }
}

export interface SoapRequestBounds {
  readonly maxBytes: number;
  readonly limits: SurveyMessageLimits;
}

/** Reads a svcEval SOAP request once, as it arrives: the parts, or the fault to answer as soon as one shows. */
export async function readSoapCall(req: Request, { maxBytes, limits }: SoapRequestBounds): Promise<ReceivedParts> {
  checkSoapAction(req.get('soapaction'));
  const reader = envelopeReader(limits);
  for await (const text of bodyText(req, maxBytes)) {
    for (let start = 0; start < text.length; start += PIECE_LENGTH) {
      if (start > 0) await nextTurnOfEventLoop();
      reader.write(text.length <= PIECE_LENGTH ? text : text.slice(start, start + PIECE_LENGTH));
    }
  }
  return reader.end();
}
