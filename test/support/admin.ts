import request from 'supertest';
import type { RunningServer } from '../../src/listen';
import { serve } from './http';
import { buildTestApp, type TestApp, type TestAppOptions } from './test-app';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const BEARER = `Bearer ${ADMIN_TOKEN}`;

export interface AdminServer {
  readonly testApp: TestApp;
  readonly server: RunningServer;
  readonly url: string;
}

/** A fresh app with the admin API on, really listening on a free loopback port. */
export async function startAdminServer(env: NodeJS.ProcessEnv = {}, options: TestAppOptions = {}): Promise<AdminServer> {
  const testApp = buildTestApp({ ADMIN_TOKEN, ...env }, undefined, options);
  const server = await serve(testApp.app);
  return { testApp, server, url: server.url };
}

/** supertest requests that carry the admin token. */
export function admin(url: string) {
  const agent = request(url);
  return {
    get: (path: string) => agent.get(path).set('Authorization', BEARER),
    put: (path: string) => agent.put(path).set('Authorization', BEARER),
    delete: (path: string) => agent.delete(path).set('Authorization', BEARER),
    post: (path: string) => agent.post(path).set('Authorization', BEARER),
  };
}

/** POST /admin/calls with an NDJSON body made of the given lines. */
export function postNdjson(url: string, lines: readonly string[]) {
  return admin(url).post('/admin/calls').set('Content-Type', 'application/x-ndjson').send(lines.join('\n'));
}
