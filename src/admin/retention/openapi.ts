import type { AdminAnswers, AdminOperation } from '../../http/openapi/admin-operation';
import { retentionViewSchema } from './routes';

/** /admin/retention: what RETENTION_MONTHS drops, previewed or done now. */
export function retentionOperations({ json }: AdminAnswers): AdminOperation[] {
  return [
    {
      method: 'get',
      path: '/admin/retention',
      operationId: 'previewRetention',
      summary: 'The raw calls that RETENTION_MONTHS would drop now',
      description:
        'Whole UTC months of raw calls before the cut-off (RETENTION_MONTHS months before the current one, by the server\'s clock), ' +
        'with their number of calls; nothing is dropped. Without RETENTION_MONTHS, none.',
      responses: { 200: json('What would be dropped', retentionViewSchema) },
    },
    {
      method: 'post',
      path: '/admin/retention',
      operationId: 'applyRetention',
      summary: 'Drop the raw calls older than RETENTION_MONTHS now',
      description:
        'What the server does at start and every hour, done now: the months of raw calls before the cut-off are dropped whole, ' +
        'each logged with its number of calls. Every rollup stays, so reports over those days answer as before, and their call ' +
        'ids stay known, so an import of one of them again counts a duplicate. Without RETENTION_MONTHS nothing is dropped.',
      responses: { 200: json('Dropped', retentionViewSchema) },
    },
  ];
}
