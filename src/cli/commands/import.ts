import { Command, Option } from 'commander';
import { LISTED_REJECTIONS, fileSize, importFile, type ImportTotals } from '../import/import-file';
import { progressReporter } from '../import/progress';
import { adminClient, withServerOptions, type ServerOptions } from '../server-options';
import { plural } from '../counts';
import { wholeNumber } from './number-options';

interface ImportOptions extends ServerOptions {
  readonly batchSize: number;
}

function report(totals: ImportTotals): string {
  const lines = totals.listed.map(({ line, error }) => `line ${line}: ${error}`);
  const unlisted = totals.rejected - totals.listed.length;
  if (unlisted > 0) lines.push(`... and ${plural(unlisted, 'more rejected line')}`);
  lines.push(
    `${plural(totals.received, 'record')} read: ${totals.inserted.toLocaleString('en-US')} inserted, ` +
      `${plural(totals.duplicates, 'duplicate')}, ${totals.rejected.toLocaleString('en-US')} rejected`,
  );
  return `${lines.join('\n')}\n`;
}

export function importCommand(env: NodeJS.ProcessEnv): Command {
  return withServerOptions(
    new Command('import')
      .summary('import call records from an NDJSON or CSV file into a running server')
      .description(
        'import call records from an NDJSON or CSV file (a header row naming the columns) into a running server, in batches; ' +
          'exits 1 when a line was rejected or the server cannot be reached. Importing a file again is safe: ' +
          `records already stored count as duplicates. At most ${LISTED_REJECTIONS} rejected lines are listed.`,
      )
      .argument('<file>', 'a .ndjson/.jsonl or .csv file; another extension is told apart by its first character that is not blank'),
  )
    .addOption(new Option('--batch-size <n>', 'records per request').argParser(wholeNumber(1, 100_000)).default(5_000))
    .action(async (file: string, options: ImportOptions) => {
      const client = adminClient(options, env);
      const progress = progressReporter(await fileSize(file), process.stderr);
      const totals = await importFile(file, client, {
        batchSize: options.batchSize,
        progress,
        onWait: (seconds) => process.stderr.write(`rate limited by the server; waiting ${seconds} s\n`),
      });
      process.stdout.write(report(totals));
      if (totals.rejected > 0) process.exitCode = 1;
    });
}
