import { Command } from 'commander';
import type { RetentionView } from '../../admin/retention/routes';
import { adminClient, withServerOptions, type ServerOptions } from '../server-options';

interface RetentionOptions extends ServerOptions {
  readonly dryRun?: boolean;
}

const monthsOf = ({ first_month: first, last_month: last }: RetentionView['months'][number]): string =>
  first === null ? `up to ${last}` : first === last ? last : `${first} to ${last}`;

/** One line of what was kept, then one per part dropped (or that would be). */
export function describeRetention(view: RetentionView): string {
  if (view.retention_months === null || view.cutoff === null) return 'RETENTION_MONTHS is not set on the server: every raw call is kept\n';
  const lines = [`raw calls kept from ${view.cutoff.slice(0, 7)} (RETENTION_MONTHS=${view.retention_months}); their rollups are kept for ever`];
  if (view.months.length === 0) lines.push(view.dry_run ? 'nothing would be dropped' : 'nothing to drop');
  for (const part of view.months) lines.push(`${view.dry_run ? 'would drop' : 'dropped'} ${monthsOf(part)}: ${part.calls} calls`);
  return `${lines.join('\n')}\n`;
}

export function retentionCommand(env: NodeJS.ProcessEnv): Command {
  return withServerOptions(
    new Command('retention')
      .summary("drop the raw calls older than the server's RETENTION_MONTHS now")
      .description(
        "drop, now rather than at the server's next hourly round, the months of raw calls older than its RETENTION_MONTHS " +
          '(whole months, UTC); the daily rollups that reports read are kept',
      )
      .option('--dry-run', 'only say what would be dropped'),
  ).action(async (options: RetentionOptions) => {
    process.stdout.write(describeRetention(await adminClient(options, env).retention(options.dryRun === true)));
  });
}
