import { Command, InvalidArgumentError, Option } from 'commander';
import { loadCliConfig } from '../../configuration';
import { normalisePhone } from '../../domain/phone-number';
import type { Tool } from '../../domain/tool';
import { COMPACT_DATE_PATTERN } from '../../time/calendar-patterns';
import { CliError } from '../cli-error';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../mirror/bounded-fetch';
import { ceilingsOf, DEFAULT_MAX_CALLS } from '../mirror/checks';
import { mirror } from '../mirror/mirror';
import { mirrorProgress } from '../mirror/progress';
import { STRETCHES, type Stretch } from '../mirror/source';
import { adminClient, checkedUrl, withServerOptions, type ServerOptions } from '../server-options';
import { parseTool } from './account-key';
import { wholeNumber } from './number-options';

/** The days the reporting API takes, by its own rule. */
const COMPACT_DATE = new RegExp(COMPACT_DATE_PATTERN);

interface MirrorOptions extends ServerOptions {
  readonly from: string;
  readonly tool: Tool;
  readonly login: string;
  readonly password?: string;
  readonly phones: string[];
  readonly start: string;
  readonly end: string;
  readonly into: { tool: Tool; login: string };
  readonly dryRun?: boolean;
  readonly spanDays?: number;
  readonly stretch: Stretch;
  readonly maxWaitMinutes: number;
  readonly batchSize: number;
  readonly maxCalls: number;
}

function day(value: string): string {
  if (!COMPACT_DATE.test(value)) {
    throw new InvalidArgumentError('must be a real date written YYYYMMDD, from 19700101, e.g. 20180207');
  }
  return value;
}

function phoneList(value: string): string[] {
  const phones = value.split(',').map((phone) => {
    const normalised = normalisePhone(phone.trim());
    if (normalised === undefined) throw new InvalidArgumentError(`${JSON.stringify(phone)} is not a phone number of 1-15 digits, optionally after a +`);
    return normalised;
  });
  return [...new Set(phones)];
}

function accountKey(value: string): { tool: Tool; login: string } {
  const slash = value.indexOf('/');
  if (slash < 1 || slash === value.length - 1) throw new InvalidArgumentError('must be TOOL/LOGIN, e.g. dev/mirror');
  return { tool: parseTool(value.slice(0, slash)), login: value.slice(slash + 1) };
}

export function mirrorCommand(env: NodeJS.ProcessEnv): Command {
  return withServerOptions(
    new Command('mirror')
      .summary("copy an account's reports from any server of this API into an account here, as calls")
      .description(
        "read the numbers' daily series (volume, events, performance, caller profile), geographic reports and diagnostic flows at a " +
          'reporting API, as any client does, and write calls into an account of a running server here that reproduce them ' +
          '(docs/mirror.md says which figures are exact). The account and its numbers must exist here, in the source account\'s time zone. ' +
          'Every figure read is checked before anything is written: a figure that is no whole count, contradicts another, or passes ' +
          '--max-calls is refused, naming it. Mirroring a range again stores nothing new; exits 1 when a figure could not be met or a record was refused.',
      ),
  )
    .requiredOption('--from <url>', 'base URL of the reporting API to read, e.g. https://reports.example.com')
    .requiredOption('--tool <tool>', "the source account's tool", parseTool)
    .requiredOption('--login <login>', "the source account's login")
    .option('--password <password>', "the source account's password (default: MIRROR_SOURCE_PASSWORD)")
    .requiredOption('--phones <numbers>', 'the numbers to mirror, comma-separated', phoneList)
    .requiredOption('--start <YYYYMMDD>', 'first local day of the range', day)
    .requiredOption('--end <YYYYMMDD>', 'last local day of the range, included', day)
    .requiredOption('--into <tool/login>', 'the account here that receives the calls', accountKey)
    .option('--dry-run', 'read the source and say what would be written, and the requests a run needs, without writing')
    .addOption(new Option('--span-days <n>', 'days per request (default: the whole range, until the source names its limit)').argParser(wholeNumber(1, 100_000)))
    .addOption(
      new Option('--stretch <stretch>', "read the geographic and flow reports per month (exact over every month) or per span (fewer requests)")
        .choices(STRETCHES)
        .default('month'),
    )
    .addOption(new Option('--max-wait-minutes <n>', "the longest one request may wait, for the source's rate limit and to retry its failures").argParser(wholeNumber(0, 1_440)).default(60))
    .addOption(new Option('--batch-size <n>', 'calls per request to the admin API').argParser(wholeNumber(1, 100_000)).default(5_000))
    .addOption(
      new Option('--max-calls <n>', "the most calls a run writes; one number's day may have a tenth of it")
        .argParser(wholeNumber(1, 1_000_000_000))
        .default(DEFAULT_MAX_CALLS),
    )
    .action(async (options: MirrorOptions) => {
      if (options.end < options.start) throw new CliError(`--end ${options.end} is earlier than --start ${options.start}`);
      const password = options.password ?? loadCliConfig(env).mirrorSourcePassword;
      if (password === undefined) throw new CliError("no password for the source: pass --password or set MIRROR_SOURCE_PASSWORD");
      const admin = adminClient(options, env);
      const outcome = await mirror(
        {
          source: { baseUrl: checkedUrl(options.from, '--from', "the source's base URL, e.g. https://reports.example.com"), tool: options.tool, login: options.login, password },
          sourceOptions: {
            maxWaitMs: options.maxWaitMinutes * 60_000,
            spanDays: options.spanDays,
            stretch: options.stretch,
            ceilings: ceilingsOf(options.maxCalls),
            maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
          },
          phones: options.phones,
          start: options.start,
          end: options.end,
          into: options.into,
          dryRun: options.dryRun === true,
          batchSize: options.batchSize,
        },
        admin,
        mirrorProgress(process.stderr),
        (seconds) => process.stderr.write(`rate limited by the server; waiting ${seconds} s\n`),
      );
      process.stdout.write(outcome.summary);
      for (const shortfall of outcome.shortfalls) process.stderr.write(`not met: ${shortfall}\n`);
      for (const rejected of outcome.rejected) process.stderr.write(`refused: ${rejected}\n`);
      if (outcome.shortfalls.length > 0 || outcome.rejected.length > 0) process.exitCode = 1;
    });
}
