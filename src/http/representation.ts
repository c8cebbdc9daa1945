import type { Request, Response } from 'express';
import { Builder } from 'xml2js';
import { z } from 'zod';
import type { AppError } from '../errors/catalogue';

/**
 * A body that can be written as JSON or as XML. Every reporting response, errors included, is rendered
 * here, so content negotiation lives in this one place.
 */
export interface Representation {
  /** The JSON text of the body. */
  json(): string;
  /** The same JSON as bytes, for a body that writes them without making the text first (a report). */
  jsonBytes?(): Buffer;
  /** The children of the `<result>` root element, in xml2js builder form. */
  xml(): Record<string, unknown>;
}

const xmlBuilder = new Builder({
  rootName: 'result',
  xmldec: { version: '1.0', encoding: 'UTF-8' },
  renderOpts: { pretty: false },
});

const OFFERED = ['application/json', 'application/xml', 'text/xml'];

export function prefersXml(req: Request): boolean {
  const chosen = req.accepts(OFFERED);
  return chosen === 'application/xml' || chosen === 'text/xml';
}

/** The parts of a list, split at `separator` outside quoted strings. */
function splitOutsideQuotes(list: string, separator: ',' | ';'): string[] {
  return list.match(separator === ',' ? /(?:[^,"]|"(?:[^"\\]|\\.)*")+/g : /(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
}

/** Each media range of an Accept header with its q-value only. */
function withoutParameters(accept: string): string {
  return splitOutsideQuotes(accept, ',')
    .map((range) => {
      const [type = '', ...parameters] = splitOutsideQuotes(range, ';').map((part) => part.trim());
      return [type, ...parameters.filter((parameter) => /^q\s*=/i.test(parameter))].join(';');
    })
    .join(',');
}

/**
 * Which of `offered` (media types without parameters) the request's Accept prefers, by Express's
 * negotiation, as prefersXml chooses (q-value, then the most specific range, then the order of the header,
 * then of `offered`; no Accept: the first offered), or undefined when it accepts none of them. Media types are
 * compared without their parameters: scrapers send version and escaping parameters that differ between
 * releases of Prometheus, where a parameter that the offer lacks would make a range match nothing.
 */
export function preferredMediaType<T extends string>(req: Request, offered: readonly T[]): T | undefined {
  const accept = req.get('Accept');
  // Express's negotiator reads the header from the request it is called on: a view of this one with the header pared.
  const asked: Request = accept === undefined ? req : Object.create(req, { headers: { value: { ...req.headers, accept: withoutParameters(accept) } } }) as Request;
  const chosen: unknown = asked.accepts([...offered]);
  return offered.find((type) => type === chosen);
}

export type Format = 'json' | 'xml';

export function negotiatedFormat(req: Request): Format {
  return prefersXml(req) ? 'xml' : 'json';
}

/** A body written out in one format, with its content type. */
export interface RenderedBody {
  readonly contentType: string;
  readonly text: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const XML_TYPE = 'application/xml; charset=utf-8';

export function renderIn(format: Format, body: Representation): RenderedBody {
  return format === 'xml' ? { contentType: XML_TYPE, text: xmlBuilder.buildObject(body.xml()) } : { contentType: JSON_TYPE, text: body.json() };
}

/** A body written out in one format as the bytes sent, with its content type. */
export interface EncodedBody {
  readonly contentType: string;
  readonly bytes: Buffer;
}

export function encodeIn(format: Format, body: Representation): EncodedBody {
  if (format === 'json' && body.jsonBytes !== undefined) return { contentType: JSON_TYPE, bytes: body.jsonBytes() };
  const { contentType, text } = renderIn(format, body);
  return { contentType, bytes: Buffer.from(text) };
}

/** Sets status and content headers for the negotiated format and returns the body text. */
export function render(req: Request, res: Response, status: number, body: Representation): string {
  const { contentType, text } = renderIn(negotiatedFormat(req), body);
  res.status(status).vary('Accept').type(contentType);
  return text;
}

export function send(req: Request, res: Response, status: number, body: Representation): void {
  res.send(render(req, res, status, body));
}

/** A body made of named text fields: `{"a":"x"}` or `<result><a>x</a></result>`. */
export function fields(values: Readonly<Record<string, string>>): Representation {
  return {
    json: () => JSON.stringify(values),
    xml: () => ({ ...values }),
  };
}

/** The error body (specification.md §2.1): `{"error": "..."}`, or `<result><error>...</error></result>`. */
export const errorBodySchema = z
  .strictObject({ error: z.string().meta({ description: 'What went wrong, in a sentence a person can act on' }) })
  .meta({ id: 'Error', xml: { name: 'result' } });

/**
 * The response header naming the catalogue code of a refusal (src/errors/catalogue.ts): a client or a log
 * can tell one refusal from another without parsing its message, and the reference's body stays as it is.
 */
export const ERROR_CODE_HEADER = 'X-Error-Code';

/** The error body (specification.md §2.1), with the error's own headers (Allow, WWW-Authenticate, ...) and its code. */
export function renderError(req: Request, res: Response, error: AppError): string {
  res.set(error.headers).set(ERROR_CODE_HEADER, error.code);
  const body: z.input<typeof errorBodySchema> = { error: error.message };
  return render(req, res, error.statusCode, fields(body));
}
