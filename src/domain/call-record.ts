import { z } from 'zod';
import { storableIdentifier } from './storable-text';
import { parseInstantWithOffset } from './instant';
import { phoneNumberSchema } from './phone-number';

export interface CallRecord {
  readonly callId: string;
  /** Digits only. */
  readonly phone: string;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly logEvents: number;
  readonly loops: number;
  readonly formItems: number;
}

const count = z.number().int().min(0).max(1_000_000_000);

const startedAt = z.string().transform((value, context) => {
  const instant = parseInstantWithOffset(value);
  if (instant === undefined) {
    context.addIssue({
      code: 'custom',
      message: 'must be a real ISO-8601 date and time from 1970 with an offset, e.g. 2018-02-07T10:15:00-05:00',
    });
    return z.NEVER;
  }
  return instant;
});

/** A call record as it arrives on the wire (seed file, admin API): snake_case, ISO time with offset. */
export const callRecordSchema = z
  .strictObject({
    call_id: storableIdentifier(200),
    phone: phoneNumberSchema,
    started_at: startedAt,
    log_events: count,
    loops: count,
    form_items: count,
  })
  .transform(
    (wire): CallRecord => ({
      callId: wire.call_id,
      phone: wire.phone,
      startedAt: wire.started_at,
      logEvents: wire.log_events,
      loops: wire.loops,
      formItems: wire.form_items,
    }),
  );

export type CallRecordInput = z.input<typeof callRecordSchema>;
