import express, { Router } from 'express';
import { z } from 'zod';
import { errors } from '../../errors/catalogue';
import { methodNotAllowed } from '../../http/error-handler';
import type { Clock } from '../../time/clock';
import { describeIssues } from '../../http/field-errors';
import { requireJsonIfAny } from '../../http/json-body';
import type { MovableClock } from './movable-clock';

/** Ten years: far enough for any expiry or window, near enough that the time stays a date. */
const MOST_SECONDS_AT_ONCE = 315_360_000;

/** The body of POST /admin/clock. */
export const clockAdvanceSchema = z
  .strictObject({
    advance_seconds: z
      .int({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a whole number of seconds') })
      .min(1, 'must be at least 1: the clock only moves forward')
      .max(MOST_SECONDS_AT_ONCE, `must be at most ${MOST_SECONDS_AT_ONCE} (ten years)`)
      .meta({ description: 'How far to move the server\'s time forward' }),
  })
  .meta({ id: 'ClockAdvance' });

/** What GET and POST /admin/clock answer. */
export const clockViewSchema = z
  .strictObject({
    now: z.iso.datetime().meta({ description: "The server's time, as every window and expiry reads it" }),
    offset_seconds: z.number().meta({ description: 'How far it has been moved ahead of the system clock' }),
    movable: z.boolean().meta({ description: 'Whether POST /admin/clock may move it (SANDBOX_CLOCK=true)' }),
  })
  .meta({ id: 'Clock' });

/** The server's clock as the admin API shows it: the one every service reads, and the movable one when SANDBOX_CLOCK is set. */
export interface ClockAdmin {
  readonly clock: Clock;
  readonly movable: MovableClock | undefined;
}

function clockView({ clock, movable }: ClockAdmin): z.input<typeof clockViewSchema> {
  return { now: new Date(clock.now()).toISOString(), offset_seconds: movable?.offsetSeconds ?? 0, movable: movable !== undefined };
}

/** GET /admin/clock, and POST to move it forward when the server was started with SANDBOX_CLOCK=true. */
export function clockRoutes(admin: ClockAdmin): Router {
  const router = Router();
  router
    .route('/clock')
    .get((_req, res) => {
      res.status(200).json(clockView(admin));
    })
    .post(requireJsonIfAny, express.json({ limit: '1kb', strict: false }), (req, res) => {
      const body = clockAdvanceSchema.safeParse(req.body);
      if (!body.success) throw errors.invalidParameter(describeIssues(body.error.issues));
      if (admin.movable === undefined) throw errors.clockNotMovable();
      admin.movable.advance(body.data.advance_seconds);
      res.status(200).json(clockView(admin));
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));
  return router;
}
