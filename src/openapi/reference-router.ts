import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type RequestHandler } from 'express';
import { errors } from '../errors/catalogue';
import { methodNotAllowed } from '../http/error-handler';
import { OPENAPI_PATH, type ApiDocument } from './document';
import { docsContentSecurityPolicy, docsPage, INITIALIZER_FILE, INITIALIZER_SCRIPT, STYLE_FILE, STYLE_SHEET, SWAGGER_UI_FILES } from './docs-page';

export const DOCS_PATH = '/docs';

/** What the API reference is made of, built once at start. */
export interface ApiReference {
  readonly document: ApiDocument;
  /** PUBLIC_URL, where "Try it out" sends requests when it is set. */
  readonly publicUrl: string | undefined;
}

/** Served from the installed package, never a CDN: the page must work offline. */
const swaggerUiFolder = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const swaggerUiVersion = (JSON.parse(readFileSync(path.join(swaggerUiFolder, 'package.json'), 'utf8')) as { version: string }).version;

/** The assets' folder names their version, so they can be cached for good: another version is another URL. */
const ASSET_FOLDER = `swagger-ui-${swaggerUiVersion}`;
const SERVED_FILES: ReadonlySet<string> = new Set(SWAGGER_UI_FILES);

// The document, the page and its script change with the server's version and configuration: revalidated each time (ETag).
const REVALIDATE = 'no-cache';

function sendText(type: string, text: string, headers: Readonly<Record<string, string>> = {}): RequestHandler {
  return (_req, res) => {
    res.set({ 'Cache-Control': REVALIDATE, 'X-Content-Type-Options': 'nosniff', ...headers }).type(type).send(text);
  };
}

/**
 * GET /openapi.json (the document, serialised once) and the API reference page at /docs with its assets,
 * mounted outside the rate limits: reading the documentation costs nothing of any limit group.
 */
export function apiReferenceRouter({ document, publicUrl }: ApiReference): Router {
  const router = Router();
  const getOnly = methodNotAllowed(['GET', 'HEAD']);
  router.route(OPENAPI_PATH).get(sendText('application/json; charset=utf-8', JSON.stringify(document))).all(getOnly);

  const page = docsPage(ASSET_FOLDER);
  const showPage = sendText('text/html; charset=utf-8', page, { 'Content-Security-Policy': docsContentSecurityPolicy(publicUrl) });
  router
    .route(DOCS_PATH)
    .get((req, res, next) => {
      // The page's references are relative to /docs; from /docs/ they would point one folder too deep.
      if (req.path.endsWith('/')) res.redirect(301, `../${DOCS_PATH.slice(1)}`);
      else showPage(req, res, next);
    })
    .all(getOnly);
  router
    .route(`${DOCS_PATH}/${INITIALIZER_FILE}`)
    .get(sendText('text/javascript; charset=utf-8', INITIALIZER_SCRIPT))
    .all(getOnly);
  router
    .route(`${DOCS_PATH}/${STYLE_FILE}`)
    .get(sendText('text/css; charset=utf-8', STYLE_SHEET))
    .all(getOnly);
  router
    .route(`${DOCS_PATH}/${ASSET_FOLDER}/:file`)
    .get((req, res, next) => {
      const file = req.params.file ?? '';
      if (!SERVED_FILES.has(file)) {
        next(errors.notFound(req.path));
        return;
      }
      res.set('X-Content-Type-Options', 'nosniff');
      res.sendFile(file, { root: swaggerUiFolder, maxAge: '365d', immutable: true }, (error) => {
        if (error !== undefined) next(error);
      });
    })
    .all(getOnly);
  return router;
}
