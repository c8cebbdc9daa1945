import { Router, type Request, type RequestHandler, type Response } from 'express';
import { DeclaredRoutes, type DeclaredMethod } from './declared-routes';

const serveNothing: RequestHandler = () => undefined;

/** Routes as the app declares them: the caller profile (four params) and the geographic report (three) under /api, and a survey path at the root. */
function appRoutes(): { routes: DeclaredRoutes; router: Router } {
  const routes = new DeclaredRoutes();
  const router = Router();
  const declare = (mountPath: string, method: DeclaredMethod, path: string) => routes.declare(router, mountPath, { method, path, handle: serveNothing });
  declare('/api', 'GET', '/profile/:start/:end/:period/:phone');
  declare('/api', 'GET', '/profile/:start/:end/:phone');
  declare('/api', 'GET', '/events/:start/:end/:period/:phone');
  declare('/api', 'POST', '/auth');
  declare('', 'POST', '/survey');
  return { routes, router };
}

/** The route pattern the lookup found for a request and the params it set, or undefined when it leaves the request to the router. */
function lookUp(method: string, path: string): { route: string; params: Record<string, string> } | undefined {
  const req = { method, path, params: {} } as Pick<Request, 'method' | 'path' | 'params'>;
  const found = appRoutes().routes.match(req);
  return found === undefined ? undefined : { route: found.route.path, params: req.params as Record<string, string> };
}

describe('the lookup of declared routes', () => {
  it('finds the caller profile by its four params and the geographic report by its three, both under /profile', () => {
    expect(lookUp('GET', '/api/profile/20250101/20250131/day/18005550100')).toEqual({
      route: '/profile/:start/:end/:period/:phone',
      params: { start: '20250101', end: '20250131', period: 'day', phone: '18005550100' },
    });
    expect(lookUp('GET', '/api/profile/20250101/20250131/18005550100')).toEqual({
      route: '/profile/:start/:end/:phone',
      params: { start: '20250101', end: '20250131', phone: '18005550100' },
    });
  });

  it('finds a route of no params, under a mount and at the root', () => {
    expect(lookUp('POST', '/api/auth')).toEqual({ route: '/auth', params: {} });
    expect(lookUp('POST', '/survey')).toEqual({ route: '/survey', params: {} });
  });

  it('answers HEAD with the GET route, and leaves other methods to the router', () => {
    expect(lookUp('HEAD', '/api/events/20250101/20251231/day/ALL')?.route).toBe('/events/:start/:end/:period/:phone');
    expect(lookUp('POST', '/api/events/20250101/20251231/day/ALL')).toBeUndefined();
    expect(lookUp('GET', '/survey')).toBeUndefined();
    expect(lookUp('DELETE', '/api/auth')).toBeUndefined();
  });

  it('takes one trailing slash, with the params the router would give', () => {
    expect(lookUp('GET', '/api/profile/20250101/20250131/18005550100/')).toEqual({
      route: '/profile/:start/:end/:phone',
      params: { start: '20250101', end: '20250131', phone: '18005550100' },
    });
    expect(lookUp('POST', '/survey/')?.route).toBe('/survey');
  });

  it.each([
    ['GET', '/API/events/20250101/20251231/day/ALL', 'another letter case, which the router matches too'],
    ['GET', '/api/EVENTS/20250101/20251231/day/ALL', 'another letter case, which the router matches too'],
    ['POST', '/Survey', 'another letter case, which the router matches too'],
    ['GET', '/api/events/20250101/20251231/day/%41LL', 'a percent-encoded param'],
    ['GET', '/api/ev%65nts/20250101/20251231/day/ALL', 'a percent-encoded literal'],
    ['POST', '/%73urvey', 'a percent-encoded literal'],
    ['GET', '/api/events/20250101//day/ALL', 'an empty segment'],
    ['GET', '/api/events/20250101/20251231/day/ALL//', 'a second trailing slash'],
    ['POST', '/survey//', 'a second trailing slash'],
    ['GET', '/api/profile/20250101/18005550100', 'a count of segments no route has'],
    ['GET', '/api/events/20250101/20251231/day/ALL/more', 'a count of segments no route has'],
    ['GET', '/api/unknown/20250101/20251231/day/ALL', 'a path of no declared route'],
    ['GET', '/events/20250101/20251231/day/ALL', 'a path outside the mount'],
  ])('leaves %s %s to the router: %s', (method, path) => {
    expect(lookUp(method, path)).toBeUndefined();
  });

  it('hands what it found to the route with req.route set, and everything else on unserved', () => {
    const routes = new DeclaredRoutes();
    const served: string[] = [];
    const route = routes.declare(Router(), '/api', { method: 'GET', path: '/profile/:start/:end/:period/:phone', handle: (req) => served.push(`${req.method} ${req.route.path}`) });
    const passedOn: string[] = [];
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
      const req = { method, path: '/api/profile/20250101/20250131/day/ALL', params: {} } as unknown as Request;
      routes.dispatch(req, {} as Response, () => passedOn.push(method));
    }
    expect(served).toEqual([`GET ${route.path}`, `HEAD ${route.path}`]);
    expect(passedOn).toEqual(['POST', 'DELETE']);
  });
});
