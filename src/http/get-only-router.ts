import { Router, type RequestHandler } from 'express';
import { methodNotAllowed } from './error-handler';

/**
 * A router answering GET (and HEAD) at the path it is mounted at, with `handlers` in turn, and 405 with
 * `Allow` to other methods there. Mounted with `app.use(path, ...)`, every other request passes it by
 * one path comparison instead of going through a router.
 */
export function getOnlyAtMountPath(handlers: readonly RequestHandler[]): Router {
  const router = Router();
  router
    .route('/')
    .get(...handlers)
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
