import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningServer } from '../listen';
import { serve } from '../../test/support/http';
import { buildTestApp } from '../../test/support/test-app';

const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const { version } = JSON.parse(readFileSync(path.join(swaggerUi, 'package.json'), 'utf8')) as { version: string };

let server: RunningServer;

async function start(env: NodeJS.ProcessEnv = {}): Promise<void> {
  server = await serve(buildTestApp(env).app);
}

afterEach(() => server.close());

/** The `src` and `href` references of a page. */
const references = (html: string): string[] => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1] as string);

const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

describe('GET /docs', () => {
  beforeEach(() => start());

  test('is an HTML page under a Content-Security-Policy that allows only this server, revalidated on every use', async () => {
    const response = await request(server.url).get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(POLICY);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  test('loads Swagger UI from this server, and links back to the dashboard, by references relative to the page, with no inline script', async () => {
    const { text } = await request(server.url).get('/docs');
    const folder = `docs/swagger-ui-${version}`;
    expect(references(text)).toEqual([
      `${folder}/swagger-ui.css`,
      'docs/docs-page.css',
      `${folder}/favicon-32x32.png`,
      `${folder}/favicon-16x16.png`,
      './',
      `${folder}/swagger-ui-bundle.js`,
      'docs/swagger-initializer.js',
    ]);
    expect(text).toContain('<a id="dashboard-link" href="./">Reports dashboard</a>');
    expect(text).not.toMatch(/\sstyle=/);
    expect([...text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].map(([, attributes, body]) => ({ src: /src="/.test(attributes as string), body }))).toEqual([
      { src: true, body: '' },
      { src: true, body: '' },
    ]);
  });

  test('serves every asset the page references from the installed swagger-ui-dist, cached for good under its version', async () => {
    const { text } = await request(server.url).get('/docs');
    for (const reference of references(text).filter((url) => url.includes('/swagger-ui-'))) {
      const response = await request(server.url).get(`/${reference}`).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect({ reference, status: response.status, cache: response.headers['cache-control'] }).toEqual({
        reference,
        status: 200,
        cache: 'public, max-age=31536000, immutable',
      });
      expect((response.body as Buffer).equals(readFileSync(path.join(swaggerUi, path.basename(reference))))).toBe(true);
    }
  });

  test('serves the page\'s script, which loads this server\'s document, as JavaScript', async () => {
    const response = await request(server.url).get('/docs/swagger-initializer.js');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.text).toContain("url: 'openapi.json'");
    expect(response.text).toContain('validatorUrl: null');
  });

  test('serves the page\'s styles as CSS, revalidated on every use', async () => {
    const response = await request(server.url).get('/docs/docs-page.css');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.text).toContain('.page-header');
  });

  test('answers 404 for a file of the package the page does not use', async () => {
    const response = await request(server.url).get(`/docs/swagger-ui-${version}/swagger-ui-bundle.js.map`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: `no resource at /docs/swagger-ui-${version}/swagger-ui-bundle.js.map` });
  });

  test('redirects /docs/ to the page, whose references are relative to /docs', async () => {
    const response = await request(server.url).get('/docs/');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('../docs');
  });

  test('answers another method with 405 and Allow', async () => {
    const response = await request(server.url).delete('/docs');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });
});

test('lets the page call PUBLIC_URL, where "Try it out" sends requests when it is set', async () => {
  await start({ PUBLIC_URL: 'https://reports.example.com/ivr' });
  const response = await request(server.url).get('/docs');
  expect(response.headers['content-security-policy']).toBe(POLICY.replace("connect-src 'self'", "connect-src 'self' https://reports.example.com"));
});
