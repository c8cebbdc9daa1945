import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import { AppError, errors } from '../errors/catalogue';

type Decompressor = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

const DECOMPRESSORS: ReadonlyMap<string, (() => Decompressor) | null> = new Map([
  ['identity', null],
  ['gzip', () => zlib.createGunzip()],
  ['x-gzip', () => zlib.createGunzip()],
  ['deflate', () => zlib.createInflate()],
  ['br', () => zlib.createBrotliDecompress()],
]);

/** Null for identity. */
function decompressorFor(contentEncoding: string | undefined): Decompressor | null {
  const create = DECOMPRESSORS.get((contentEncoding ?? '').trim().toLowerCase() || 'identity');
  if (create === undefined) {
    throw errors.invalidSurveyCall('this Content-Encoding is not supported; send identity, gzip, deflate or br');
  }
  return create === null ? null : create();
}

const unreadable = () =>
  errors.invalidSurveyCall('the request body could not be read; it may be truncated or not match its Content-Encoding');

/** Errors of Node's zlib streams: corrupt, truncated or mislabelled compressed data. */
function isDecompressionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR_BROTLI|ERR__)/.test(code);
}

/**
 * The request body's bytes as they arrive, decompressed by Content-Encoding, failing with 413 as soon as
 * more than `limitBytes` came out (so a small gzip bomb costs one chunk, not its expansion). Whenever the
 * reader stops early, on a limit or its own refusal, the rest of the body is read and thrown away, so
 * that the answer reaches a client still sending instead of a reset connection.
 */
export async function* bodyBytes(req: Request, limitBytes: number): AsyncGenerator<Buffer, void, undefined> {
  const decompressor = decompressorFor(req.get('content-encoding'));
  if (decompressor === null && Number(req.get('content-length')) > limitBytes) {
    discardRest(req);
    throw errors.payloadTooLarge(limitBytes);
  }
  let source: Readable = req;
  if (decompressor !== null) {
    // A client gone mid-body must end the read, not leave it waiting for compressed data.
    req.once('error', (error) => decompressor.destroy(error));
    req.once('close', () => req.complete || decompressor.destroy(new Error('the client closed the connection mid-body')));
    source = req.pipe(decompressor);
  }
  let received = 0;
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limitBytes) throw errors.payloadTooLarge(limitBytes);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw isDecompressionError(error) ? unreadable() : error;
  } finally {
    discardRest(req);
    decompressor?.destroy();
  }
}

function discardRest(req: Request): void {
  if (req.readableEnded) return;
  req.unpipe();
  req.resume();
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** The body as text in pieces as it arrives, decoded in the charset its Content-Type names (UTF-8 when none). */
export async function* bodyText(req: Request, limitBytes: number): AsyncGenerator<string, void, undefined> {
  const charset = CHARSET.exec(req.get('content-type') ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw errors.invalidSurveyCall(`charset ${charset} is not supported; send UTF-8`);
  }
  const decode = (bytes?: Buffer): string => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw errors.invalidSurveyCall(`the request body is not valid ${charset}`);
    }
  };
  for await (const bytes of bodyBytes(req, limitBytes)) yield decode(bytes);
  yield decode();
}
