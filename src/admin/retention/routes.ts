import { Router } from 'express';
import { z } from 'zod';
import { methodNotAllowed } from '../../http/error-handler';
import { applyRetention, type Retention, type RetentionOutcome } from '../../retention/retention';

const month = z.string().regex(/^\d{4}-\d{2}$/);

/** What GET and POST /admin/retention answer. */
export const retentionViewSchema = z
  .strictObject({
    retention_months: z.int().nullable().meta({ description: 'RETENTION_MONTHS of the server; null: every raw call is kept' }),
    cutoff: z.iso.datetime().nullable().meta({ description: 'The first instant of the oldest UTC month kept; null without RETENTION_MONTHS' }),
    dry_run: z.boolean().meta({ description: 'true: nothing was dropped, the months are those that would go' }),
    months: z
      .array(
        z.strictObject({
          first_month: month.nullable().meta({ description: 'YYYY-MM; null: every month up to last_month (the calls stored before calls were kept by month)' }),
          last_month: month.meta({ description: 'YYYY-MM' }),
          calls: z.int().meta({ description: 'Raw calls of these months' }),
        }),
      )
      .meta({ description: 'Raw calls dropped (or that would be), oldest first; their rollups stay' }),
  })
  .meta({ id: 'Retention' });

export type RetentionView = z.output<typeof retentionViewSchema>;

function retentionView(outcome: RetentionOutcome, months: number | undefined): RetentionView {
  return {
    retention_months: months ?? null,
    cutoff: outcome.cutoffMs === undefined ? null : new Date(outcome.cutoffMs).toISOString(),
    dry_run: outcome.dryRun,
    months: outcome.months.map((part) => ({ first_month: part.firstMonth ?? null, last_month: part.lastMonth, calls: part.calls })),
  };
}

/** GET /admin/retention: what RETENTION_MONTHS would drop now; POST: drop it now, rather than at the next hourly round. */
export function retentionRoutes(retention: Retention): Router {
  const router = Router();
  router
    .route('/retention')
    .get(async (_req, res) => {
      res.status(200).json(retentionView(await applyRetention(retention, true), retention.months));
    })
    .post(async (_req, res) => {
      res.status(200).json(retentionView(await applyRetention(retention, false), retention.months));
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));
  return router;
}
