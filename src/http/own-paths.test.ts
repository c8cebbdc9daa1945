import { ADMIN_TOKEN } from '../../test/support/admin';
import { buildTestApp } from '../../test/support/test-app';
import { OWN_PATHS, ownPathOf } from './own-paths';
import { servedPaths } from '../survey/services/survey-service';

/** What a layer of Express's router stack holds: its mount path, its route, or a router mounted in it. */
interface MountLayer {
  readonly rawPath?: unknown;
  readonly route?: { readonly path: unknown };
  readonly handle: { readonly stack?: readonly MountLayer[] };
}

/**
 * Every path the app's router stack names, joined to the paths it is mounted under: a route's path, or
 * the path a router or handler is mounted at (a middleware mounted everywhere names none).
 */
function mountedPaths(stack: readonly MountLayer[], prefix = ''): string[] {
  return stack.flatMap((layer): string[] => {
    if (layer.route !== undefined) return [`${prefix}${String(layer.route.path)}`];
    const mountedAt = layer.rawPath === '/' ? prefix : `${prefix}${String(layer.rawPath)}`;
    const inner = layer.handle.stack === undefined ? [] : mountedPaths(layer.handle.stack, mountedAt);
    return mountedAt === prefix ? inner : [mountedAt, ...inner];
  });
}

describe("the server's own paths (OWN_PATHS)", () => {
  let mounted: string[];
  let servicePaths: Set<string>;

  beforeAll(() => {
    // Every optional part on: the admin API is only mounted with ADMIN_TOKEN.
    const { app, config } = buildTestApp({ ADMIN_TOKEN });
    mounted = mountedPaths(app.router.stack as unknown as MountLayer[]);
    servicePaths = new Set(config.survey.services.flatMap((service) => servedPaths(service).map(({ path }) => path)));
  });

  test('hold every path app.ts mounts but the survey services', () => {
    expect(mounted).toEqual(expect.arrayContaining(['/api', '/admin', '/healthz', '/', '/inspector', '/survey']));
    expect(mounted.filter((path) => !servicePaths.has(path) && ownPathOf(path) === undefined)).toEqual([]);
  });

  test('are each mounted', () => {
    expect(OWN_PATHS.filter((own) => !mounted.some((path) => ownPathOf(path) === own)).map(({ path }) => path)).toEqual([]);
  });

  test('are matched as Express routes a request: in any letter case, with one trailing slash or none, and what is under them', () => {
    expect(['/inspector', '/Inspector/', '/DOCS', '/docs/x', '/ADMIN/accounts', '/Healthz', '/dashboard/abc/app.js', '/'].map((path) => ownPathOf(path)?.path)).toEqual([
      '/inspector',
      '/inspector',
      '/docs',
      '/docs',
      '/admin',
      '/healthz',
      '/dashboard',
      '/',
    ]);
    expect(['/survey', '/apis', '/docsx', '/x/api'].map((path) => ownPathOf(path))).toEqual([undefined, undefined, undefined, undefined]);
  });
});
