import type { RequestHandler } from 'express';
import { errors } from '../errors/catalogue';

/** A body in any other type than JSON would be silently ignored by express.json, so it is refused instead. */
export const requireJsonIfAny: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  next(hasBody && !req.is('application/json') ? errors.unsupportedMediaType(['application/json']) : undefined);
};
