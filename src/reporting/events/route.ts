import type { RequestHandler } from 'express';
import { send } from '../../http/representation';
import { authenticatedAccount } from '../basic-auth/require-credentials';
import type { EventTracker } from './event-tracker';
import { parseEventQuery } from './params';
import { eventReportRepresentation } from './representation';

export const EVENTS_PATH = '/events/:start/:end/:period/:phone';

export function eventsRoute(track: EventTracker, maxRangeDays: number): RequestHandler {
  return async (req, res) => {
    const query = parseEventQuery(req.params as Record<string, string>, maxRangeDays);
    const report = await track(authenticatedAccount(res), query);
    send(req, res, 200, eventReportRepresentation(report));
  };
}
