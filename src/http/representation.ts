import type { Request, Response } from 'express';
import { Builder } from 'xml2js';
import type { AppError } from '../errors/catalogue';

/**
 * A body that can be written as JSON or as XML. Every reporting response, errors included, is rendered
 * here, so content negotiation lives in this one place.
 */
export interface Representation {
  /** The JSON text of the body. */
  json(): string;
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

/** Sets status and content headers for the negotiated format and returns the body text. */
export function render(req: Request, res: Response, status: number, body: Representation): string {
  res.status(status).vary('Accept');
  if (prefersXml(req)) {
    res.type('application/xml; charset=utf-8');
    return xmlBuilder.buildObject(body.xml());
  }
  res.type('application/json; charset=utf-8');
  return body.json();
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

/** The error body of decisions.md, with the error's own headers (Allow, WWW-Authenticate, ...). */
export function renderError(req: Request, res: Response, error: AppError): string {
  res.set(error.headers);
  return render(req, res, error.statusCode, fields({ error: error.message }));
}
