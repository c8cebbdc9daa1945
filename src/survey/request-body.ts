import express, { type Request, type RequestHandler } from 'express';
import { TextDecoder } from 'node:util';
import { errors, type AppError } from '../errors/catalogue';

function bodyReadError(error: unknown, limitBytes: number): AppError {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  if (type === 'entity.too.large') return errors.payloadTooLarge(limitBytes);
  if (type === 'encoding.unsupported') {
    return errors.invalidSoapRequest('this Content-Encoding is not supported; send identity, gzip, deflate or br');
  }
  return errors.invalidSoapRequest('the request body could not be read; it may be truncated or not match its Content-Encoding');
}

/**
 * Reads the whole body into req.body, whatever its Content-Type, before the soap package sees it: that
 * package has no size limit and its own gunzip stream crashes the process on corrupt input. The limit
 * counts decompressed bytes, and decompression stops as soon as it is passed, so a small gzip bomb
 * costs at most `limitBytes` of memory.
 */
export function readSoapBody(limitBytes: number): RequestHandler {
  const readRaw = express.raw({ type: () => true, limit: limitBytes });
  return (req, res, next) => {
    void readRaw(req, res, (error?: unknown) => next(error === undefined ? undefined : bodyReadError(error, limitBytes)));
  };
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** The body as text, in the charset its Content-Type names (UTF-8 when it names none). */
export function bodyText(req: Request): string {
  const body: unknown = req.body;
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const charset = CHARSET.exec(req.get('content-type') ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw errors.invalidSoapRequest(`charset ${charset} is not supported; send UTF-8`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw errors.invalidSoapRequest(`the request body is not valid ${charset}`);
  }
}
