import { Command, InvalidArgumentError, Option } from 'commander';
import { once } from 'node:events';
import { normalisePhone } from '../../domain/phone-number';
import { isTimeZone, TIME_ZONE_RULE } from '../../domain/time-zone';
import { generateDemoCalls } from '../../startup-data/demo/calls';
import { CliError } from '../cli-error';
import { wholeNumber } from './number-options';

interface DemoOptions {
  readonly days: number;
  readonly phones: number;
  readonly callsPerDay: number;
  readonly seed: number;
  readonly firstPhone: string;
  readonly timezone: string;
}

/** Right after the bundled demo account's numbers (18005550100-102), so both can live on one server. */
const FIRST_PHONE = '18005550200';

function phoneNumber(value: string): string {
  const phone = normalisePhone(value);
  if (phone === undefined) throw new InvalidArgumentError('must be a phone number of 1-15 digits, optionally after a +');
  return phone;
}

function timeZone(value: string): string {
  if (!isTimeZone(value)) throw new InvalidArgumentError(TIME_ZONE_RULE);
  return value;
}

function consecutiveNumbers(first: string, count: number): string[] {
  const start = BigInt(first);
  const numbers = Array.from({ length: count }, (_, index) => (start + BigInt(index)).toString().padStart(first.length, '0'));
  const last = numbers.at(-1);
  if (last !== undefined && last.length > 15) throw new CliError(`--phones ${count} from ${first} goes past 15 digits`);
  return numbers;
}

async function writeRecords(options: DemoOptions): Promise<void> {
  const calls = generateDemoCalls({
    phones: consecutiveNumbers(options.firstPhone, options.phones),
    days: options.days,
    callsPerDay: options.callsPerDay,
    seed: options.seed,
    timeZone: options.timezone,
    now: Date.now(),
  });
  for (const call of calls) {
    if (!process.stdout.write(`${JSON.stringify(call)}\n`)) await once(process.stdout, 'drain');
  }
}

export function demoCommand(): Command {
  return new Command('demo')
    .summary('write synthetic call records as NDJSON to standard output')
    .description(
      'write realistic synthetic call records as NDJSON to standard output, from the generator of the bundled demo data; ' +
        'the same options give the same records for the same days',
    )
    .addOption(new Option('--days <n>', 'local days to cover, ending today').argParser(wholeNumber(1, 36_600)).default(30))
    .addOption(new Option('--phones <n>', 'how many numbers').argParser(wholeNumber(1, 10_000)).default(3))
    .addOption(
      new Option('--calls-per-day <n>', 'average calls per number on a weekday').argParser(wholeNumber(0, 1_000_000)).default(60),
    )
    .addOption(new Option('--seed <n>', 'seed of the random generator').argParser(wholeNumber(0, 4_294_967_295)).default(20_180_207))
    .addOption(new Option('--first-phone <number>', 'the first number; the others follow it').argParser(phoneNumber).default(FIRST_PHONE))
    .addOption(new Option('--timezone <zone>', 'time zone of the office hours the calls follow').argParser(timeZone).default('UTC'))
    .action(writeRecords);
}
