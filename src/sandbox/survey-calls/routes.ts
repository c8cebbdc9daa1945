import { Router, type Request, type Response } from 'express';
import type { Server } from 'node:http';
import { z } from 'zod';
import { errors } from '../../errors/catalogue';
import { methodNotAllowed } from '../../http/error-handler';
import { describeIssues } from '../../http/field-errors';
import { surveyCallEntrySchema, type SurveyCallEntry } from './call-entry';
import type { CallInspector } from './inspector';

/** Streams open at once per instance: each holds a connection and hears of every call. */
export const MOST_STREAMS = 10;
/** A comment this often keeps proxies and the idle timeout from closing a quiet stream. */
const HEARTBEAT_MS = 10_000;
/** Bytes a stream may have waiting for a slow reader before it is closed (it reconnects with Last-Event-ID). */
const MOST_BUFFERED_BYTES = 1024 * 1024;

const SEQ = /^(0|[1-9][0-9]{0,14})$/;

/** The query of GET /admin/survey/calls. */
export const surveyCallsQuerySchema = z.object({
  session: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a session id: 1 to 128 letters, digits, _ or -')
    .optional()
    .meta({ description: 'Only the calls of this survey session (the survey_session cookie)' }),
  service: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "must be a service's name: 1 to 40 lowercase letters, digits or -")
    .optional()
    .meta({ description: 'Only the calls of this survey service (its name: survey for the single service of SOAP_PATH)' }),
  after: z
    .string()
    .regex(SEQ, 'must be a whole number (a seq)')
    .optional()
    .meta({ description: 'Only the calls after this seq: poll with the newest seq seen' }),
});

/** What GET /admin/survey/calls answers. */
export const surveyCallListSchema = z
  .strictObject({
    capacity: z.number().int().meta({ description: 'How many calls this instance keeps (SURVEY_INSPECT_CALLS); 0: none' }),
    calls: z.array(surveyCallEntrySchema).meta({ description: 'Newest first' }),
  })
  .meta({ id: 'SurveyCallList' });

/** The call inspector as the admin API reads it: undefined when SURVEY_INSPECT_CALLS=0. */
export interface SurveyCallsAdmin {
  readonly inspector: CallInspector | undefined;
}

function eventOf(entry: SurveyCallEntry): string {
  return `event: call\nid: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`;
}

/**
 * Server-sent events: every call as it is kept (`event: call`, `id: <seq>`), after the kept ones newer
 * than Last-Event-ID when the client reconnects with it; a comment every HEARTBEAT_MS. Ends when the
 * client goes, when it reads too slowly, or once the server stops listening.
 */
function streamCalls(inspector: CallInspector | undefined, streams: Set<(text: string) => void>) {
  return (req: Request, res: Response): void => {
    const lastEventId = req.get('Last-Event-ID');
    if (lastEventId !== undefined && !SEQ.test(lastEventId.trim())) {
      throw errors.invalidParameter('Last-Event-ID: must be a whole number (a seq)');
    }
    const headers = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' };
    // HEAD tells what GET would, without opening a stream that would never end.
    if (req.method === 'HEAD') {
      res.status(200).set(headers).end();
      return;
    }
    if (streams.size >= MOST_STREAMS) throw errors.tooManyStreams(MOST_STREAMS);
    res.status(200).set(headers);
    res.flushHeaders();
    let ended = false;
    const send = (text: string): void => {
      if (ended) return;
      if (res.writableLength > MOST_BUFFERED_BYTES) {
        res.destroy();
        return;
      }
      res.write(text);
    };
    res.write(': the call inspector\n\n');
    const replayed = inspector?.newestFirst(lastEventId === undefined ? Number.MAX_SAFE_INTEGER : Number(lastEventId.trim())) ?? [];
    for (const entry of replayed.reverse()) send(eventOf(entry));
    streams.add(send);
    const server = (req.socket as { server?: Server }).server;
    const heartbeat = setInterval(() => {
      if (server !== undefined && !server.listening) res.end();
      else send(': heartbeat\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
    res.once('close', () => {
      ended = true;
      clearInterval(heartbeat);
      streams.delete(send);
    });
  };
}

/** GET /admin/survey/calls (the list, newest first, filtered) and GET /admin/survey/calls/stream (server-sent events). */
export function surveyCallRoutes({ inspector }: SurveyCallsAdmin): Router {
  const router = Router();
  // The open streams: each call is written as an event once, on the survey call's own path, then sent to each.
  const streams = new Set<(text: string) => void>();
  inspector?.subscribe((entry) => {
    if (streams.size === 0) return;
    const event = eventOf(entry);
    for (const send of streams) send(event);
  });
  router
    .route('/survey/calls')
    .get((req, res) => {
      const query = surveyCallsQuerySchema.safeParse(req.query);
      if (!query.success) throw errors.invalidParameter(describeIssues(query.error.issues));
      const { session, service, after } = query.data;
      const calls = (inspector?.newestFirst(after === undefined ? 0 : Number(after)) ?? []).filter(
        (entry) => (session === undefined || entry.session === session) && (service === undefined || entry.service === service),
      );
      res.status(200).json({ capacity: inspector?.capacity ?? 0, calls } satisfies z.input<typeof surveyCallListSchema>);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/survey/calls/stream')
    .get(streamCalls(inspector, streams))
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
