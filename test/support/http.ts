import type { Express } from 'express';
import { listen, type RunningServer } from '../../src/server';

/** A real HTTP server for the app on a free loopback port; close it in afterEach. */
export function serve(app: Express): Promise<RunningServer> {
  return listen(app, '127.0.0.1', 0);
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}
