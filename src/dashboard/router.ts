import { Router, type RequestHandler, type Response } from 'express';
import { methodNotAllowed } from '../http/error-handler';
import type { DashboardAsset, DashboardAssets } from './assets';

/**
 * Scripts and styles only from the dashboard's own files (no inline script or style attribute), requests
 * only to this origin, no frames, no plugins; `img-src data:` for the page's empty icon.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The page names its assets by digest, so the page is checked each time and the assets kept for a year. */
export const PAGE_CACHE_CONTROL = 'no-cache';
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const READ_METHODS = ['GET', 'HEAD'];

function sendBytes(res: Response, { contentType, bytes }: DashboardAsset, cacheControl: string): void {
  res.set({ 'Content-Type': contentType, 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' });
  res.send(bytes);
}

function page(bytes: Buffer): RequestHandler {
  const asset = { contentType: 'text/html; charset=utf-8', bytes };
  return (_req, res) => {
    res.set({ 'Content-Security-Policy': DASHBOARD_CSP, 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    sendBytes(res, asset, PAGE_CACHE_CONTROL);
  };
}

/**
 * The dashboard: its reports page at `/`, the call inspector's page at `/inspector`, and their files
 * (browser modules, styles, uPlot) under `/dashboard/{digest}/`.
 */
export function dashboardRouter(assets: DashboardAssets): Router {
  // Strict: the pages' addresses are relative to them, so `/inspector/` would load nothing; it is a 404.
  const router = Router({ strict: true });
  router.route('/').get(page(assets.page)).all(methodNotAllowed(READ_METHODS));
  router.route('/inspector').get(page(assets.inspectorPage)).all(methodNotAllowed(READ_METHODS));
  for (const [path, asset] of assets.files) {
    router
      .route(path)
      .get((_req, res) => sendBytes(res, asset, ASSET_CACHE_CONTROL))
      .all(methodNotAllowed(READ_METHODS));
  }
  return router;
}
