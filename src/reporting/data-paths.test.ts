import { Router, type Request, type RequestHandler, type Response } from 'express';
import { createMemoryStore } from '../storage/memory/memory-store';
import { CALLER_PROFILE_PATH } from './profile/caller-series';
import { GEOGRAPHIC_PATH } from './profile/geographic-report';
import { dataResources } from './data-resources';
import { DataPaths } from './router';

const serveNothing: RequestHandler = () => undefined;

/** The app's own raw-data resources, each added by its path with a route of it, as reportingApi adds them. */
function appDataPaths(): DataPaths {
  const paths = new DataPaths();
  const router = Router();
  for (const { path } of dataResources(createMemoryStore(), { weekStart: 'monday', maxRangeDays: 31, reports: undefined })) {
    paths.add(path, router.route(path), serveNothing);
  }
  return paths;
}

/** The route pattern the lookup found for a path and the params it set, or undefined when it leaves the path to the router. */
function lookUp(path: string): { route: string; params: Record<string, string> } | undefined {
  const req = { path, params: {} } as Pick<Request, 'path' | 'params'>;
  const found = appDataPaths().match(req);
  return found === undefined ? undefined : { route: found.route.path, params: req.params as Record<string, string> };
}

describe('the raw-data lookup (DataPaths)', () => {
  it('finds the caller profile by its four params and the geographic report by its three, both under /profile', () => {
    expect(lookUp('/api/profile/20250101/20250131/day/18005550100')).toEqual({
      route: CALLER_PROFILE_PATH,
      params: { start: '20250101', end: '20250131', period: 'day', phone: '18005550100' },
    });
    expect(lookUp('/api/profile/20250101/20250131/18005550100')).toEqual({
      route: GEOGRAPHIC_PATH,
      params: { start: '20250101', end: '20250131', phone: '18005550100' },
    });
  });

  it('finds every other resource by the segment after /api/', () => {
    expect(lookUp('/api/events/20250101/20251231/day/ALL')?.route).toBe('/events/:start/:end/:period/:phone');
    expect(lookUp('/api/volume/20250101/20251231/month/ALL')?.route).toBe('/volume/:start/:end/:period/:phone');
    expect(lookUp('/api/performance/20250101/20251231/week/ALL')?.route).toBe('/performance/:start/:end/:period/:phone');
    expect(lookUp('/api/path/20250101/20251231/ALL')?.route).toBe('/path/:start/:end/:phone');
  });

  it('takes a resource name in another letter case, as the router matches it', () => {
    expect(lookUp('/api/EVENTS/20250101/20251231/day/ALL')?.route).toBe('/events/:start/:end/:period/:phone');
  });

  it('takes one trailing slash, with the params the router would give', () => {
    expect(lookUp('/api/profile/20250101/20250131/18005550100/')).toEqual({
      route: GEOGRAPHIC_PATH,
      params: { start: '20250101', end: '20250131', phone: '18005550100' },
    });
  });

  it('leaves to the router /API in another letter case', () => {
    expect(lookUp('/API/events/20250101/20251231/day/ALL')).toBeUndefined();
  });

  it('leaves to the router a percent-encoded param or resource name', () => {
    expect(lookUp('/api/events/20250101/20251231/day/%41LL')).toBeUndefined();
    expect(lookUp('/api/ev%65nts/20250101/20251231/day/ALL')).toBeUndefined();
  });

  it('leaves to the router an empty segment, a second trailing slash and a count of params no resource has', () => {
    expect(lookUp('/api/events/20250101//day/ALL')).toBeUndefined();
    expect(lookUp('/api/events/20250101/20251231/day/ALL//')).toBeUndefined();
    expect(lookUp('/api/profile/20250101/18005550100')).toBeUndefined();
    expect(lookUp('/api/events/20250101/20251231/day/ALL/more')).toBeUndefined();
  });

  it('leaves to the router a name that is no resource, and a path outside /api/', () => {
    expect(lookUp('/api/auth')).toBeUndefined();
    expect(lookUp('/api/unknown/20250101/20251231/day/ALL')).toBeUndefined();
    expect(lookUp('/events/20250101/20251231/day/ALL')).toBeUndefined();
  });

  it('hands a request other than GET or HEAD on to the router unserved', () => {
    const paths = new DataPaths();
    const served: string[] = [];
    paths.add(CALLER_PROFILE_PATH, Router().route<string>(CALLER_PROFILE_PATH), () => served.push('profile'));
    const passedOn: string[] = [];
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
      const req = { method, path: '/api/profile/20250101/20250131/day/ALL', params: {} } as unknown as Request;
      paths.dispatch(req, {} as Response, () => passedOn.push(method));
    }
    expect(served).toEqual(['profile', 'profile']);
    expect(passedOn).toEqual(['POST', 'DELETE']);
  });
});
