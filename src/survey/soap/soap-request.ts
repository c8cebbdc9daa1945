import type { Request } from 'express';
import { setImmediate as nextTurnOfEventLoop } from 'node:timers/promises';
import { errors } from '../../errors/catalogue';
import { bodyTextDecoder, readBody } from '../body-stream';
import type { SurveyCallBounds } from '../call-parts';
import { envelopeReader, type EnvelopeReader } from './envelope-reader';
import { shown, type SoapCallParts } from './envelope-rules';
import { readPlainEnvelope } from './plain-envelope';
import { SURVEY_SERVICE } from './wsdl';

/**
 * The most text parsed in one turn of the event loop. A socket or zlib chunk is at most 64 KiB; parsed
 * in 16 Ki-character pieces, even a message of small hostile elements holds other requests for a few
 * milliseconds at a time.
 */
const PIECE_LENGTH = 16_384;

/**
 * SOAP 1.1 callers name the operation in the SOAPAction header; this service accepts its own action,
 * or none (absent or empty), since the Body already names the operation.
 */
function checkSoapAction(header: string | undefined): void {
  const trimmed = header?.trim() ?? '';
  const quoted = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"');
  const action = quoted ? trimmed.slice(1, -1) : trimmed;
  if (action !== '' && action !== SURVEY_SERVICE.soapAction) {
    throw errors.unknownSoapAction(shown(action), SURVEY_SERVICE.soapAction);
  }
}

/** Parses a long text a piece per turn of the event loop. */
async function writeInPieces(reader: EnvelopeReader, text: string): Promise<void> {
  for (let start = 0; start < text.length; start += PIECE_LENGTH) {
    if (start > 0) await nextTurnOfEventLoop();
    reader.write(text.slice(start, start + PIECE_LENGTH));
  }
}

/**
 * Reads a svcEval or plumEval SOAP request once, as it arrives: the parts, or the fault to answer as soon as one shows.
 * A small body that came whole, as survey systems send a page, is first scanned as plain XML
 * (plain-envelope.ts); what that scan does not read, sax reads.
 */
export async function readSoapCall(req: Request, bounds: SurveyCallBounds): Promise<SoapCallParts> {
  const { limits } = bounds;
  checkSoapAction(req.get('soapaction'));
  const decode = bodyTextDecoder(req);
  let plainParts: SoapCallParts | undefined;
  let reader: EnvelopeReader | undefined;
  await readBody(req, bounds, (bytes, wholeBody) => {
    const text = decode(bytes);
    if (wholeBody && text.length <= PIECE_LENGTH) {
      plainParts = readPlainEnvelope(text, limits);
      if (plainParts !== undefined) return;
    }
    reader ??= envelopeReader(limits);
    if (text.length <= PIECE_LENGTH) reader.write(text);
    else return writeInPieces(reader, text);
  });
  // A fatal decoder's last call throws for an unfinished character, or gives nothing: the scan saw all the text.
  const rest = decode();
  if (plainParts !== undefined) return plainParts;
  reader ??= envelopeReader(limits);
  reader.write(rest);
  return reader.end();
}
