import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { ASSET_CACHE_CONTROL, DASHBOARD_CSP, PAGE_CACHE_CONTROL } from './router';
import type { RunningServer } from '../listen';
import { serve } from '../../test/support/http';
import { buildTestApp } from '../../test/support/test-app';

const BROWSER_FOLDER = path.resolve(__dirname, '../../src/dashboard/browser');
const UPLOT = readFileSync(require.resolve('uplot/dist/uPlot.esm.js'));

let server: RunningServer;

beforeEach(async () => {
  server = await serve(buildTestApp().app);
});

afterEach(() => server.close());

/** The asset addresses a page names, relative to it as the browser reads them (both pages are at the root). */
async function assetAddresses(pagePath = '/'): Promise<string[]> {
  const page = await request(server.url).get(pagePath);
  return [...page.text.matchAll(/(?:href|src)="(dashboard\/[0-9a-f]{12}\/[^"]+)"/g)].map((match) => `/${match[1]}`);
}

describe('the dashboard page', () => {
  test('is HTML that is checked on every load, with a policy that allows only its own scripts and styles', async () => {
    const response = await request(server.url).get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers.etag).toMatch(/^W\/".+"$/);
    expect(response.text).toMatch(/^<!doctype html>\n<html lang="en">/);
  });

  test('has a labelled sign-in form listing every tool, and no inline script or style', async () => {
    const { text } = await request(server.url).get('/');
    const tools = ['dev', 'fuse', 'insight', 'fuseplus'].map((tool) => `<option>${tool}</option>`).join('');
    expect(text).toContain(`<select id="tool" name="tool" required>${tools}</select>`);
    for (const field of ['tool', 'login', 'password']) expect(text).toContain(`<label for="${field}">`);
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(text).not.toMatch(/\sstyle=|<style/);
    expect(text).not.toContain('{{');
  });

  test('links to the call inspector, relative to the page', async () => {
    const { text } = await request(server.url).get('/');
    expect(text).toContain('<a id="inspector-link" href="inspector">Survey call inspector</a>');
  });

  test('answers 304 to a browser that has it already', async () => {
    const first = await request(server.url).get('/');
    const again = await request(server.url).get('/').set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  test('answers HEAD with the headers of GET and no body', async () => {
    const response = await request(server.url).head('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
    expect(response.text).toBeUndefined();
  });

  test('refuses other methods with 405 and Allow', async () => {
    const response = await request(server.url).post('/').send('x=1');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body).toEqual({ error: 'method POST is not allowed here; use GET or HEAD' });
  });
});

describe("the call inspector's page", () => {
  test('is HTML checked on every load, under the same policy as the dashboard page', async () => {
    const response = await request(server.url).get('/inspector');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers.etag).toMatch(/^W\/".+"$/);
    expect(response.text).toMatch(/^<!doctype html>\n<html lang="en">/);
  });

  test('names its module and the styles under the digest of the dashboard page, and links back to it', async () => {
    const dashboard = await assetAddresses('/');
    const digest = /^\/dashboard\/([0-9a-f]{12})\//.exec(dashboard[0] as string)?.[1];
    expect(await assetAddresses('/inspector')).toEqual([`/dashboard/${digest}/dashboard.css`, `/dashboard/${digest}/inspector.js`]);
    const { text } = await request(server.url).get('/inspector');
    expect(text).toContain('<a id="reports-link" href="./">Reports dashboard</a>');
  });

  test('asks for the admin token in a labelled password field, and has no inline script or style', async () => {
    const { text } = await request(server.url).get('/inspector');
    expect(text).toContain('<label for="token">Admin token</label>');
    expect(text).toContain('<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required>');
    for (const field of ['session-filter', 'service-filter']) expect(text).toContain(`<label for="${field}">`);
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(text).not.toMatch(/\sstyle=|<style/);
    expect(text).not.toContain('{{');
  });

  test('is not at /inspector/, where its relative addresses would load nothing', async () => {
    const response = await request(server.url).get('/inspector/');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'no resource at /inspector/' });
  });

  test('answers HEAD with the headers of GET, and other methods with 405 and Allow', async () => {
    const head = await request(server.url).head('/inspector');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    const post = await request(server.url).post('/inspector').send('x=1');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('the dashboard assets', () => {
  test('are the page module, the styles and uPlot, under one digest the page names', async () => {
    const addresses = await assetAddresses();
    const digest = /^\/dashboard\/([0-9a-f]{12})\//.exec(addresses[0] as string)?.[1];
    expect(addresses).toEqual([
      `/dashboard/${digest}/vendor/uplot.css`,
      `/dashboard/${digest}/dashboard.css`,
      `/dashboard/${digest}/app.js`,
    ]);
  });

  test('are sent with their content type, nosniff, and kept by browsers for a year', async () => {
    const [uplotCss, css, script] = await assetAddresses();
    const expectations = [
      [script, 'text/javascript; charset=utf-8'],
      [css, 'text/css; charset=utf-8'],
      [uplotCss, 'text/css; charset=utf-8'],
    ] as const;
    for (const [address, contentType] of expectations) {
      const response = await request(server.url).get(address as string);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(contentType);
      expect(response.headers['cache-control']).toBe(ASSET_CACHE_CONTROL);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  test('serve uPlot from node_modules, as the browser modules import it', async () => {
    const [, , script] = await assetAddresses();
    const base = path.posix.dirname(script as string);
    const seriesView = await request(server.url).get(`${base}/series-view.js`);
    expect(seriesView.text).toContain("import uPlot from './vendor/uplot.js';");
    const uplot = await request(server.url).get(`${base}/vendor/uplot.js`).buffer(true);
    expect(uplot.status).toBe(200);
    expect(uplot.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Buffer.from(uplot.text).equals(UPLOT)).toBe(true);
  });

  test("are every browser module, each a page's or imported by another, and all served", async () => {
    const [, , script] = await assetAddresses();
    const base = path.posix.dirname(script as string);
    const pending = ['app.js', 'inspector.js'];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const name = pending.pop() as string;
      if (seen.has(name)) continue;
      seen.add(name);
      const response = await request(server.url).get(`${base}/${name}`);
      expect([name, response.status]).toEqual([name, 200]);
      if (name.startsWith('vendor/')) continue;
      for (const [, imported] of response.text.matchAll(/^import .* from '\.\/(.+)';$/gm)) pending.push(imported as string);
    }
    const browserModules = readdirSync(BROWSER_FOLDER).filter((name) => name.endsWith('.js'));
    expect([...seen].sort()).toEqual([...browserModules, 'vendor/uplot.js'].sort());
  });

  test('an unknown asset, another digest and the page templates are 404s', async () => {
    const [, , script] = await assetAddresses();
    const base = path.posix.dirname(script as string);
    const addresses = [`${base}/missing.js`, '/dashboard/000000000000/app.js', `${base}/index.html`, `${base}/inspector.html`, '/dashboard/app.js'];
    for (const address of addresses) {
      const response = await request(server.url).get(address);
      expect([address, response.status]).toEqual([address, 404]);
      expect(response.body).toEqual({ error: `no resource at ${address}` });
    }
  });

  test('refuse other methods with 405 and Allow', async () => {
    const [, , script] = await assetAddresses();
    const response = await request(server.url).delete(script as string);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });
});
